package rules

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// SelectForUpdate flags locking reads: a row lock taken on one server is no
// lock at all for the writers that reach another one.
var SelectForUpdate = &lint.Rule{
	Code:    "GQ007",
	Name:    "select-for-update",
	Summary: "SELECT … FOR UPDATE / FOR SHARE / LOCK IN SHARE MODE used as a cross-node lock (advisory)",
	Doc: "A locking read holds InnoDB row locks on the one instance that ran it. Behind read/write " +
		"splitting the SELECT may reach a replica, where FOR UPDATE locks nothing the primary's writers " +
		"see; across shards each shard locks only its own rows; and the read-then-write sequence it " +
		"protects still decides on a value that is stale the moment the lock is gone. The write itself " +
		"must carry the condition, so that the database refuses it atomically wherever it runs.",
	Fix: "replace lock-read-compute-write with one conditional statement, e.g. " +
		"`UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?` and require " +
		"RowsAffected == 1; when the new value is computed from the read, use a version CAS: " +
		"`UPDATE t_inventory SET inventory = ?, version = version + 1 WHERE id = ? AND version = ?`",
	Kind:         lint.KindQuery,
	Severity:     policy.SevWarning,
	PerStatement: true,
	Run:          runSelectForUpdate,
}

func runSelectForUpdate(pass *lint.Pass) error {
	var finder lockingSelectFinder // one for the pass: a visitor given to Accept is allocated
	for _, st := range pass.Statements {
		if st.Node == nil {
			continue
		}
		sel := finder.first(st.Node)
		if sel == nil {
			continue
		}
		t, w := lockedTarget(pass, sel)
		pass.ReportStatementFix(st, t.tableName(), "", lockFix(pass, w, t),
			"%s takes a row lock on one primary only: it coordinates nothing across replicas, "+
				"shards or read/write splitting; make the write itself conditional (an UPDATE … WHERE "+
				"guard with RowsAffected == 1) or a version CAS", lockClause(sel.LockInfo.LockType))
	}
	return nil
}

// firstLockingSelect returns the first SELECT of n, subqueries and INSERT …
// SELECT included, that carries a locking clause; nil when none does.
func firstLockingSelect(n sqlparse.Node) *sqlparse.SelectStmt {
	var v lockingSelectFinder
	return v.first(n)
}

type lockingSelectFinder struct{ found *sqlparse.SelectStmt }

// first is firstLockingSelect with v, which it resets. A statement whose
// text has neither the word FOR nor LOCK has no locking clause, and its
// tree is not walked.
func (v *lockingSelectFinder) first(n sqlparse.Node) *sqlparse.SelectStmt {
	v.found = nil
	if t := n.Text(); t != "" && !mayLock(t) {
		return nil
	}
	n.Accept(v)
	return v.found
}

// mayLock reports whether text holds FOR or LOCK as a word, in any case: a
// locking clause (FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE) cannot be
// written without one of them. Strings and comments are not told apart,
// so the answer may be a yes where there is no clause, never a no where
// there is one.
func mayLock(text string) bool {
	for i := 0; i+3 <= len(text); i++ {
		var w string
		switch text[i] | 0x20 {
		case 'f':
			w = "for"
		case 'l':
			w = "lock"
		default:
			continue
		}
		end := i + len(w)
		if end <= len(text) && strings.EqualFold(text[i:end], w) &&
			(i == 0 || !sqlparse.NameByte(text[i-1])) && (end == len(text) || !sqlparse.NameByte(text[end])) {
			return true
		}
	}
	return false
}

// Enter implements sqlparse.Visitor.
func (v *lockingSelectFinder) Enter(n sqlparse.Node) (sqlparse.Node, bool) {
	if v.found != nil {
		return n, true
	}
	if sel, ok := n.(*sqlparse.SelectStmt); ok && sel.LockInfo != nil && sel.LockInfo.LockType != sqlparse.SelectLockNone {
		v.found = sel
		return n, true
	}
	return n, false
}

// Leave implements sqlparse.Visitor.
func (v *lockingSelectFinder) Leave(n sqlparse.Node) (sqlparse.Node, bool) { return n, true }

// lockClause names a locking clause the way the user wrote it. The parser
// reads LOCK IN SHARE MODE as FOR SHARE, so both spellings are named.
func lockClause(t sqlparse.SelectLockType) string {
	switch t {
	case sqlparse.SelectLockForUpdate:
		return "SELECT … FOR UPDATE"
	case sqlparse.SelectLockForUpdateNoWait:
		return "SELECT … FOR UPDATE NOWAIT"
	case sqlparse.SelectLockForUpdateWaitN:
		return "SELECT … FOR UPDATE WAIT n"
	case sqlparse.SelectLockForUpdateSkipLocked:
		return "SELECT … FOR UPDATE SKIP LOCKED"
	case sqlparse.SelectLockForShareNoWait:
		return "SELECT … FOR SHARE NOWAIT"
	case sqlparse.SelectLockForShareSkipLocked:
		return "SELECT … FOR SHARE SKIP LOCKED"
	}
	return "SELECT … FOR SHARE / LOCK IN SHARE MODE"
}

// lockedTarget returns the table a locking SELECT locks, as findings name
// it: the first one its OF list names, else the first one it reads; nil when
// its FROM holds no base table. w holds the SELECT's tables and WHERE.
func lockedTarget(pass *lint.Pass, sel *sqlparse.SelectStmt) (*target, *write) {
	if sel.From == nil || sel.From.TableRefs == nil {
		return nil, nil
	}
	w := &write{where: sel.Where}
	w.collect(sel.From.TableRefs, pass.Schema)
	if len(w.targets) == 0 {
		return nil, w
	}
	// FOR UPDATE OF names the locked tables by alias or name.
	for _, of := range sel.LockInfo.Tables {
		for _, t := range w.targets {
			if of != nil && t.refersTo(of.Schema.O, of.Name.O) {
				return t, w
			}
		}
	}
	return w.targets[0], w
}

// lockFix is the advice for a locking read of t: the conditional write that
// replaces lock-read-compute-write, on a counter of t when it has one, and
// the version CAS for values computed from the read.
func lockFix(pass *lint.Pass, w *write, t *target) string {
	table := t.tableName()
	if table == "" {
		return ""
	}
	key := rowKey(w, t, pass.Policy.VersionColumn())
	vc := pass.Policy.VersionColumn()
	v := versionName(w, t, vc)
	col := "…"
	var counter string
	if t.table != nil {
		if cs := lint.CounterColumns(pass.Policy, t.table); len(cs) > 0 {
			counter = schema.QuoteIdent(cs[0].Name)
			col = counter
		}
	}
	cas := "`" + casSQL(table, key, col, v) + "`"
	if col == "…" {
		cas = "`UPDATE " + schema.QuoteIdent(table) + " SET …, " + v + " = " + v + " + 1 WHERE " + key + " AND " + v + " = ?`"
	}
	if lacksVersion(t, vc) {
		cas += " (after adding a " + v + " column)"
	}
	if counter == "" {
		return "drop the lock and make the write that follows conditional on what the read checked (`UPDATE " + schema.QuoteIdent(table) +
			" SET … WHERE " + key + " AND <column> = <value read>`), requiring RowsAffected == 1; when the new value is " +
			"computed from the read, use a version CAS: " + cas
	}
	return "replace lock-read-compute-write with one conditional statement, e.g. `" +
		guardedDecrementSQL(table, key, counter, "?") + "` and require RowsAffected == 1; when the new value is computed " +
		"from the read, use a version CAS: " + cas
}
