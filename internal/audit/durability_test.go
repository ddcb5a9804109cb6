package audit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/target"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

// serverFixture is one testdata/server_*.json: what a server answered to
// the durability questions, and the GS002, GS011 and GS012 findings those
// answers make, each a regexp over "CODE severity message".
type serverFixture struct {
	About string     `json:"about"`
	Rows  ServerRows `json:"rows"`
	Want  []string   `json:"want"`
	// Notes are regexps over the notes the audit prints for the server,
	// each matching one.
	Notes []string `json:"notes,omitempty"`
}

// serverCodes are the codes the server fixtures judge.
var serverCodes = map[string]bool{"GS002": true, "GS011": true, "GS012": true}

// TestRecordedServers feeds recorded server answers through the audit's own
// reading (applyServerRows) and the whole registry: TiDB and MySQL 8, which
// cannot run here, from the outputs their documentation prints. A missing
// and an unexpected finding both fail.
func TestRecordedServers(t *testing.T) {
	files, err := filepath.Glob("testdata/server_*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no server fixtures: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			fx := readServerFixture(t, path)
			found, notes := judgeServer(t, &fx.Rows)
			if len(notes) != len(fx.Notes) {
				t.Errorf("notes %q, want %d matching %q", notes, len(fx.Notes), fx.Notes)
			}
			for i := range min(len(notes), len(fx.Notes)) {
				if !regexp.MustCompile(fx.Notes[i]).MatchString(notes[i]) {
					t.Errorf("note %q does not match %q", notes[i], fx.Notes[i])
				}
			}
			used := make([]bool, len(fx.Want))
			for _, f := range found {
				text := f.Code + " " + string(f.Severity) + " " + f.Message
				matched := false
				for i, w := range fx.Want {
					if !used[i] && regexp.MustCompile(w).MatchString(text) {
						used[i], matched = true, true
						break
					}
				}
				if !matched {
					t.Errorf("unexpected finding: %s", text)
				}
				checkServerFinding(t, f)
			}
			for i, w := range fx.Want {
				if !used[i] {
					t.Errorf("no finding matching %q", w)
				}
			}
		})
	}
}

// checkServerFinding holds every durability finding to the contract: named
// by the server, not a database; carrying the settings it rests on, each
// named with its value in the message.
func checkServerFinding(t *testing.T, f lint.Finding) {
	t.Helper()
	if f.Code == "GS002" {
		if f.Target != "db1:3306/shop" {
			t.Errorf("%s target %q, want the database's", f.Code, f.Target)
		}
		return
	}
	if f.Target != "db1:3306" {
		t.Errorf("%s target %q, want the server's, db1:3306", f.Code, f.Target)
	}
	if f.Severity == policy.SevInfo {
		return
	}
	if len(f.Settings) == 0 {
		t.Errorf("%s carries no settings: %s", f.Code, f.Message)
	}
	if name, _, _ := strings.Cut(strings.TrimPrefix(f.ColumnName, "@@global."), " "); f.Settings[name] == "" {
		t.Errorf("%s: settings %v lack %s, the setting it is on", f.Code, f.Settings, name)
	} else if !strings.Contains(f.Message, name) || !strings.Contains(f.Message, f.Settings[name]) {
		t.Errorf("%s: the message does not name %s and its value %s: %s", f.Code, name, f.Settings[name], f.Message)
	}
}

func readServerFixture(t *testing.T, path string) serverFixture {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var fx serverFixture
	if err := dec.Decode(&fx); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if fx.About == "" {
		t.Errorf("%s: say what the fixture records (about)", path)
	}
	return fx
}

// fixtureSchema is a table a CHECK guards, so that GS002 judges only the
// server's own switches.
const fixtureSchema = `CREATE TABLE t_inventory (id BIGINT PRIMARY KEY, inventory INT NOT NULL, version INT NOT NULL DEFAULT 0,
  CONSTRAINT chk_inventory CHECK (inventory >= 0)) ENGINE=InnoDB`

// judgeServer runs every schema rule, as the audit of db1:3306/shop does,
// on what the recorded answers r say, and returns the findings of
// serverCodes and the audit's notes.
func judgeServer(t *testing.T, r *ServerRows) ([]lint.Finding, []string) {
	t.Helper()
	var ddl []schema.DDL
	for _, piece := range sqlparse.Split(fixtureSchema) {
		ddl = append(ddl, schema.DDL{SQL: piece.Text, File: "schema.sql", Line: 1, Col: 1})
	}
	sch, errs := schema.FromDDL(ddl)
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	tg, err := target.Parse("auditor:pw@tcp(db1:3306)/shop")
	if err != nil {
		t.Fatal(err)
	}
	srv := schema.ParseServer(r.Version)
	live := &lint.Live{Target: tg.Name(), Version: srv.Version, EnforceCheck: srv.EnforcesCheck(), GlobalMode: "STRICT_TRANS_TABLES", SessionMode: "STRICT_TRANS_TABLES"}
	applyServerRows(live, r, tg.Config().Addr)
	found, err := judgeTarget(tg, Options{Policy: policy.Default(), Rules: rules.All()}.withDefaults(), sch, live, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []lint.Finding
	for _, f := range lint.Dedupe(found) {
		if serverCodes[f.Code] {
			out = append(out, f)
		}
	}
	lint.Order(out)
	return out, serverNotes(live)
}
