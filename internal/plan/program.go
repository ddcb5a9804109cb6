package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
)

// maxMessageText is the length of MESSAGE_TEXT a SIGNAL may set.
const maxMessageText = 128

// triggerSteps guards a counter with a BEFORE INSERT and a BEFORE UPDATE
// trigger that SIGNAL on a negative value, each in its own step. Triggers
// that exist already are left out.
func triggerSteps(t *schema.Table, c *schema.Column, srv schema.Server, existing map[string]bool) []Step {
	msg := "guard: " + t.Name + "." + c.Name + " must not be negative"
	if utf8.RuneCountInString(msg) > maxMessageText {
		msg = string([]rune(msg)[:maxMessageText])
	}
	note := "installed without a table copy; rows already negative stay as they are (guard audit finds them)"
	if srv.EnforcesCheck() {
		note += "; the server enforces CHECK, which GS003 looks for: a CHECK is the simpler guard"
	} else {
		note = "the server does not enforce CHECK, so a trigger is the guard; " + note
	}
	var out []Step
	for _, ev := range []struct{ event, suffix string }{{"INSERT", "bi"}, {"UPDATE", "bu"}} {
		name := schema.GuardName("trg", t.Name, c.Name, "nonneg", ev.suffix)
		if existing[strings.ToLower(name)] {
			continue
		}
		out = append(out, Step{
			Table: t.Name,
			Guard: GuardTrigger,
			What:  fmt.Sprintf("trigger rejecting a negative %s.%s on %s", t.Name, c.Name, ev.event),
			Name:  fileTitle(t.Name, c.Name, "nonneg", ev.suffix),
			Up: fmt.Sprintf("CREATE TRIGGER %s BEFORE %s ON %s FOR EACH ROW\nIF NEW.%s < 0 THEN\n"+
				"  SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = %s;\nEND IF",
				ident(name), ev.event, ident(t.Name), ident(c.Name), quoteString(msg)),
			Down:      "DROP TRIGGER " + ident(name),
			Algorithm: schema.AlgorithmNone,
			Note:      note,
		})
	}
	return out
}

// sqlModeStep adds STRICT_TRANS_TABLES to the global sql_mode when the
// policy requires a strict mode and the server's lacks one. MySQL 8 keeps
// the setting across restarts with SET PERSIST; MariaDB's SET GLOBAL lasts
// until the next restart only.
func sqlModeStep(pol *policy.Policy, srv schema.Server, global *string) (Step, bool) {
	if global == nil || !pol.RequireStrictMode() || strictMode(*global) {
		return Step{}, false
	}
	mode := "STRICT_TRANS_TABLES"
	if strings.TrimSpace(*global) != "" {
		mode = *global + "," + mode
	}
	st := Step{
		Guard:     GuardSQLMode,
		What:      "add STRICT_TRANS_TABLES to the global sql_mode",
		Rule:      "GS001",
		Name:      "guard_server_strict_sql_mode",
		Algorithm: schema.AlgorithmNone,
		Rows:      -1,
	}
	if srv.SupportsPersist() {
		st.Up = "SET PERSIST sql_mode = " + quoteString(mode)
		st.Down = "SET PERSIST sql_mode = " + quoteString(*global)
		st.Note = "applies to new connections; needs SYSTEM_VARIABLES_ADMIN; PERSIST keeps it across restarts"
	} else {
		st.Up = "SET GLOBAL sql_mode = " + quoteString(mode)
		st.Down = "SET GLOBAL sql_mode = " + quoteString(*global)
		st.Note = "applies to new connections; needs SUPER; SET GLOBAL does not survive a restart: also put " +
			"sql_mode = " + quoteString(mode) + " under [mysqld] in the server's configuration"
	}
	return st, true
}

// strictMode reports whether a sql_mode value holds STRICT_TRANS_TABLES or
// STRICT_ALL_TABLES, as GS001 asks.
func strictMode(mode string) bool {
	for _, m := range strings.Split(mode, ",") {
		switch strings.ToUpper(strings.TrimSpace(m)) {
		case "STRICT_TRANS_TABLES", "STRICT_ALL_TABLES":
			return true
		}
	}
	return false
}

// maxTitle bounds the title of a migration file: names of 64 characters
// each would otherwise make file names too long for some file systems.
const maxTitle = 96

// fileTitle is the title of a step's files: "guard_" and the parts, lower
// case, with anything but letters, digits and _ turned into _. A title too
// long keeps its start and a hash of the whole.
func fileTitle(parts ...string) string {
	var b strings.Builder
	b.WriteString("guard")
	for _, p := range parts {
		b.WriteByte('_')
		for _, r := range strings.ToLower(p) {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
				b.WriteRune(r)
			} else {
				b.WriteByte('_')
			}
		}
	}
	title := b.String()
	if len(title) <= maxTitle {
		return title
	}
	tag := "_" + shortHash(title)
	return strings.TrimRight(title[:maxTitle-len(tag)], "_") + tag
}

// shortHash is 8 hex digits of the SHA-256 of s.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}
