package schemarules

import (
	"github.com/guard-sql/guard/lint"
)

// reportTiDBChecks reports, on TiDB, that CHECK constraints guard nothing:
// before v7.2 TiDB parses CHECK and ignores it; from v7.2 it enforces CHECK
// only with tidb_enable_check_constraint = ON, which is OFF by default. The
// conditional UPDATE is then the only guard, and how it holds depends on
// the transaction mode, which the finding describes.
func reportTiDBChecks(p *lint.Pass) {
	t := p.Live.TiDB
	if p.Live.EnforceCheck {
		return
	}
	server := "TiDB " + t.Release
	var msg, fix string
	settings := map[string]string{}
	switch t.CheckConstraint {
	case "":
		msg = server + " parses CHECK constraints and ignores them (TiDB enforces CHECK from v7.2, with " +
			"tidb_enable_check_constraint = ON)"
		fix = "upgrade to TiDB v7.2 or later and SET GLOBAL tidb_enable_check_constraint = ON, then check SHOW CREATE " +
			"TABLE and add any CHECK it lacks; until then keep `AND c >= ?` in every decrement and check RowsAffected"
	default:
		settings["tidb_enable_check_constraint"] = t.CheckConstraint
		msg = server + " with tidb_enable_check_constraint = " + t.CheckConstraint + " parses CHECK constraints and " +
			"enforces none of them"
		fix = "SET GLOBAL tidb_enable_check_constraint = ON (it persists to the cluster), then check SHOW CREATE TABLE " +
			"and add again any CHECK declared while it was OFF; until then keep `AND c >= ?` in every decrement and " +
			"check RowsAffected"
	}
	msg += ": a write that drives a counter negative succeeds, and the conditional UPDATE is the only guard left"
	if t.TxnMode != "" {
		settings["tidb_txn_mode"] = t.TxnMode
		msg += "; " + txnModeEffect(t)
	}
	if t.AutoRetry {
		settings["tidb_disable_txn_auto_retry"] = "OFF"
	}
	p.Report(lint.Finding{
		ColumnName: "@@global.tidb_enable_check_constraint",
		Message:    msg,
		Fix:        fix,
		Settings:   settings,
	})
}

// txnModeEffect says how a conditional UPDATE holds under TiDB's
// transaction mode.
func txnModeEffect(t *lint.TiDB) string {
	if !t.Optimistic() {
		return "tidb_txn_mode = pessimistic: the UPDATE locks the row and judges its WHERE on the latest committed " +
			"version, as on MySQL, so `WHERE stock >= ?` with RowsAffected == 1 is the deduction"
	}
	s := "tidb_txn_mode = optimistic: the UPDATE judges its WHERE on the transaction's snapshot and takes no lock, so " +
		"two deductions of the last unit both see RowsAffected == 1 and the second fails only at COMMIT with a write " +
		"conflict (error 9007; an autocommit UPDATE returns it from the statement, unless TiDB retries it and judges " +
		"its WHERE again): a deduction holds once its COMMIT succeeds, and the application must retry a failed one whole"
	if t.AutoRetry {
		s += "; with tidb_disable_txn_auto_retry = OFF TiDB also runs an explicit transaction's writes again after a " +
			"conflict, on a newer snapshot: a RowsAffected or a value the code read and acted on before COMMIT may not " +
			"be what committed (lost updates)"
	}
	return s
}
