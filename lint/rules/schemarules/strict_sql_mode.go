package schemarules

import (
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// StrictSQLMode reports a live server whose global or session sql_mode is not strict.
var StrictSQLMode = &lint.Rule{
	Code:    "GS001",
	Name:    "strict-sql-mode",
	Summary: "live: global or session sql_mode lacks STRICT_TRANS_TABLES/STRICT_ALL_TABLES",
	Doc: "Outside strict mode the server turns errors into warnings: an out-of-range or " +
		"negative value written to an UNSIGNED counter is clamped to 0, a too-long key is " +
		"truncated, and the write succeeds with RowsAffected == 1. The guards guard relies on " +
		"(CHECK, UNSIGNED, NOT NULL) then fail silently instead of rejecting the statement. " +
		"The session mode is what applications actually run with; the global mode is what new " +
		"connections inherit.",
	Fix: "SET PERSIST sql_mode = CONCAT(@@GLOBAL.sql_mode, ',STRICT_TRANS_TABLES') (MySQL) or set " +
		"sql_mode in the server configuration (MariaDB), and do not relax it in the DSN " +
		"(go-sql-driver: no sql_mode parameter without STRICT_TRANS_TABLES)",
	Kind:     lint.KindSchema,
	Severity: policy.SevError,
	Live:     true,
	Run:      runStrictSQLMode,
}

func runStrictSQLMode(p *lint.Pass) error {
	if p.Live == nil || !p.Policy.RequireStrictMode() {
		return nil
	}
	for _, scope := range []struct{ name, mode string }{
		{"global", p.Live.GlobalMode},
		{"session", p.Live.SessionMode},
	} {
		if isStrictMode(scope.mode) {
			continue
		}
		shown := scope.mode
		if shown == "" {
			shown = "empty"
		} else {
			shown = "\"" + shown + "\""
		}
		// The variable stands in the column slot so that the two scopes stay
		// two findings.
		p.Report(lint.Finding{
			ColumnName: "@@" + scope.name + ".sql_mode",
			Message: scope.name + " sql_mode lacks STRICT_TRANS_TABLES and STRICT_ALL_TABLES (" + shown +
				"): invalid values are clamped or truncated with a warning instead of rejected",
			Fix: strictModeFix(scope.name, p.Live.Version),
		})
	}
	return nil
}

// isStrictMode reports whether a sql_mode value (a comma list) contains
// STRICT_TRANS_TABLES or STRICT_ALL_TABLES, in any case.
func isStrictMode(mode string) bool {
	for _, m := range strings.Split(mode, ",") {
		switch strings.ToUpper(strings.TrimSpace(m)) {
		case "STRICT_TRANS_TABLES", "STRICT_ALL_TABLES":
			return true
		}
	}
	return false
}

// strictModeFix is the advice for one scope of sql_mode on the audited
// server: the global mode is set on the server (SET PERSIST exists on MySQL
// 8 only), the session mode comes from the client.
func strictModeFix(scope, version string) string {
	if scope == "session" {
		return "the session inherits the global mode unless the client overrides it: drop the sql_mode override " +
			"(DSN parameter, connection init SQL) or add STRICT_TRANS_TABLES to it"
	}
	if strings.Contains(strings.ToLower(version), "mariadb") {
		return "SET GLOBAL sql_mode = CONCAT(@@GLOBAL.sql_mode, ',STRICT_TRANS_TABLES'), and put the same sql_mode in " +
			"the server configuration ([mariadb] sql_mode=…) so that a restart keeps it"
	}
	return "SET PERSIST sql_mode = CONCAT(@@GLOBAL.sql_mode, ',STRICT_TRANS_TABLES') (MySQL 8: survives a restart)"
}
