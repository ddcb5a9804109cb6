package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// replay builds the schema of DDL text followed by the up statements of
// steps, ignoring what does not replay.
func replay(p *sqlparse.Parser, text string, steps []Step) *schema.Schema {
	var stmts []schema.DDL
	for _, piece := range sqlparse.SplitScript(text) {
		d := schema.DDL{SQL: piece.Text}
		if n, err := p.Parse(piece.Text); err == nil {
			d.Node = n
		}
		stmts = append(stmts, d)
	}
	for _, st := range steps {
		stmts = append(stmts, schema.DDL{SQL: st.Up})
	}
	s, _ := schema.FromDDL(stmts)
	return s
}

// FuzzPlan plans arbitrary DDL for MariaDB, MySQL 8 and a MySQL 8 without
// INSTANT, and replays the plan: every planned statement parses and
// applies, and a second plan finds nothing left to do.
func FuzzPlan(f *testing.F) {
	seeds := []string{
		shopInit,
		"CREATE TABLE `a``b` (id INT PRIMARY KEY, `st``ock` INT, stock DECIMAL(5,2) UNSIGNED NULL DEFAULT 1.5 CHECK (stock >= 0), x_no VARCHAR(9));",
		"CREATE TABLE t (quantity ENUM('a','b') NULL, order_no TEXT, status INT, CONSTRAINT c CHECK (quantity >= 0) NOT ENFORCED);",
	}
	for _, glob := range []string{"../../lint/rules/testdata/GS00*/migrations/*.up.sql", "../../examples/shop/migrations/*.up.sql"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				seeds = append(seeds, string(b))
			}
		}
	}
	servers := []schema.Server{schema.ParseServer(mariadb), schema.ParseServer(mysql8), schema.ParseServer(mysql811)}
	for i, s := range seeds {
		f.Add(s, uint8(i))
	}
	pol := policy.Default()
	p := sqlparse.NewParser()
	f.Fuzz(func(t *testing.T, ddl string, server uint8) {
		if len(ddl) > 1<<14 {
			return
		}
		srv := servers[int(server)%len(servers)]
		steps := Plan(replay(p, ddl, nil), pol, srv, Options{})
		triggers := map[string]bool{}
		var ddlSteps []Step
		for _, st := range steps {
			if st.Guard == GuardTrigger {
				// The parser does not read triggers: their header must read
				// back, and the body must stay one statement.
				prog, ok := sqlparse.ReadProgram(st.Up)
				if !ok || prog.Kind != "TRIGGER" || prog.Table != st.Table || len(sqlparse.SplitScript(st.Up+";\n")) != 1 {
					t.Fatalf("planned trigger does not read back (%+v, %v): %s", prog, ok, st.Up)
				}
				triggers[strings.ToLower(prog.Name)] = true
				continue
			}
			if _, err := p.Parse(st.Up); err != nil {
				t.Fatalf("planned statement does not parse: %s: %v", st.Up, err)
			}
			ddlSteps = append(ddlSteps, st)
		}
		if again := Plan(replay(p, ddl, ddlSteps), pol, srv, Options{Triggers: triggers}); len(again) > 0 {
			t.Fatalf("after %d steps, plan again gives %+v", len(steps), again)
		}
	})
}
