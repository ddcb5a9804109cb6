package plan

import "github.com/guard-sql/guard/internal/schema"

// OSCPTOnlineSchemaChange is --osc pt-osc: the steps that copy the table
// run through pt-online-schema-change under guard migrate.
const OSCPTOnlineSchemaChange = "pt-osc"

// oscDirective is the comment that hands a migration file to a tool;
// guard migrate reads it (internal/migrator, OSCDirective).
const oscDirective = "-- guard:osc "

// HandOff marks the steps that block writes for a table copy (ALTER TABLE
// with ALGORITHM=COPY: ADD CHECK, enforcing a CHECK) to run through tool:
// their files get the directive, their statement stays as it is, so that
// golang-migrate alone still runs it. Other steps are unchanged.
func HandOff(steps []Step, tool string) []Step {
	out := make([]Step, len(steps))
	for i, st := range steps {
		if tool != "" && st.BlocksWrites && st.Algorithm == schema.AlgorithmCopy && st.Table != "" {
			st.OSC = tool
			st.BlocksWrites = false
			st.Note = "runs through pt-online-schema-change under guard migrate: the rows are copied in chunks behind triggers " +
				"and writes continue, except for a moment at the swap of the tables; golang-migrate alone runs the ALTER as written, " +
				"blocking writes for the whole copy"
		}
		out[i] = st
	}
	return out
}
