package schema

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/sqlparse"
)

var updateLive = flag.Bool("update", false, "record the MariaDB fixtures under testdata/conformance again")

// fixtureSets are the folders of recorded information_schema rows, each
// .json with a sibling .sql holding SHOW CREATE TABLE of the same tables on
// the same server, and the server each was recorded from. The MySQL rows
// follow MySQL's documented information_schema formats (bare default values,
// DEFAULT_GENERATED, escaped CHECK_CLAUSE, EXPRESSION of functional key
// parts); their STATISTICS rows come in index-name order, as a view over
// the data dictionary gives them, not in key order.
var fixtureSets = []struct {
	dir            string
	flavor         Flavor
	major, minor   int
	recordFromLive bool
}{
	{dir: "testdata/mysql8_0", flavor: FlavorMySQL, major: 8, minor: 0},
	{dir: "testdata/mysql8_4", flavor: FlavorMySQL, major: 8, minor: 4},
	{dir: "testdata/conformance/mariadb10_11", flavor: FlavorMariaDB, major: 10, minor: 11, recordFromLive: true},
}

// TestRecordedFixtures feeds recorded rows through FromRows and requires the
// model FromDDL builds from the SHOW CREATE TABLE output of the same tables.
// With -update, the MariaDB fixtures are recorded again from the test
// server: their .sql is applied, then replaced by the server's SHOW CREATE
// TABLE, and the .json by what Introspect reads.
func TestRecordedFixtures(t *testing.T) {
	for _, set := range fixtureSets {
		files, err := filepath.Glob(filepath.Join(set.dir, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Errorf("%s: no fixtures", set.dir)
		}
		for _, jsonPath := range files {
			sqlPath := strings.TrimSuffix(jsonPath, ".json") + ".sql"
			t.Run(filepath.ToSlash(jsonPath), func(t *testing.T) {
				if *updateLive && set.recordFromLive {
					recordFixture(t, sqlPath, jsonPath)
				}
				rows := readFixture(t, jsonPath)
				live, srv, err := FromRows(rows)
				if err != nil {
					t.Fatal(err)
				}
				if srv.Flavor != set.flavor || srv.Major != set.major || srv.Minor != set.minor {
					t.Errorf("fixture of %v %d.%d is from %v", set.flavor, set.major, set.minor, srv)
				}
				offline, errs, err := LoadDump(sqlPath)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range errs {
					t.Errorf("FromDDL: %v", e)
				}
				if len(offline.Tables) == 0 {
					t.Fatalf("%s holds no table", sqlPath)
				}
				var opts []cmp.Option
				if !srv.ListsIndexesInKeyOrder() {
					opts = append(opts, anyIndexOrder)
				}
				if diff := conformanceDiff(offline, live, opts...); diff != "" {
					t.Errorf("FromRows(%s) and FromDDL(%s) differ (-ddl +rows):\n%s", filepath.Base(jsonPath), filepath.Base(sqlPath), diff)
				}
			})
		}
	}
}

func readFixture(t *testing.T, path string) *InfoRows {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var rows InfoRows
	if err := dec.Decode(&rows); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &rows
}

// TestRecordedMariaDBMatchesServer checks that the recorded MariaDB rows are
// still what the test server gives for the same tables, model for model.
func TestRecordedMariaDBMatchesServer(t *testing.T) {
	for _, set := range fixtureSets {
		if !set.recordFromLive {
			continue
		}
		files, err := filepath.Glob(filepath.Join(set.dir, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, jsonPath := range files {
			sqlPath := strings.TrimSuffix(jsonPath, ".json") + ".sql"
			t.Run(filepath.ToSlash(jsonPath), func(t *testing.T) {
				db := dbtest.MySQL(t)
				applyDump(t, db, sqlPath)
				live, _, err := FromInformationSchema(context.Background(), db.SQL, db.Name)
				if err != nil {
					t.Fatal(err)
				}
				recorded, _, err := FromRows(readFixture(t, jsonPath))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(recorded, live); diff != "" {
					t.Errorf("the server's model differs from the recorded one (-recorded +server):\n%s", diff)
				}
			})
		}
	}
}

// applyDump runs the statements of sqlPath on one connection to db, so that
// the SET FOREIGN_KEY_CHECKS = 0 a dump starts with holds for the rest:
// SHOW CREATE TABLE output comes in name order, not in the order foreign
// keys need.
func applyDump(t *testing.T, db *dbtest.DB, sqlPath string) {
	t.Helper()
	src, err := os.ReadFile(sqlPath)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := db.SQL.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, piece := range sqlparse.Split(string(src)) {
		if _, err := conn.ExecContext(ctx, piece.Text); err != nil {
			t.Fatalf("apply %s: %v", sqlPath, err)
		}
	}
}

// recordFixture applies sqlPath to a fresh database and rewrites both files
// from what the server reports.
func recordFixture(t *testing.T, sqlPath, jsonPath string) {
	t.Helper()
	db := dbtest.MySQL(t)
	applyDump(t, db, sqlPath)
	rows, err := Introspect(context.Background(), db.SQL, db.Name)
	if err != nil {
		t.Fatal(err)
	}
	var dump strings.Builder
	fmt.Fprintf(&dump, "-- SHOW CREATE TABLE of each table, as %s prints it.\n", ParseServer(rows.Version))
	fmt.Fprintf(&dump, "-- Recorded with %s by: go test -run TestRecordedFixtures -update\n", filepath.Base(jsonPath))
	fmt.Fprintf(&dump, "SET FOREIGN_KEY_CHECKS = 0;\n")
	for _, tr := range rows.Tables {
		var name, create string
		if err := db.SQL.QueryRow("SHOW CREATE TABLE "+QuoteIdent(tr.Name)).Scan(&name, &create); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&dump, "\n%s;\n", create)
	}
	rows.Database = "shop"
	if err := os.WriteFile(sqlPath, []byte(dump.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(jsonPath, encodeRows(t, rows), 0o644); err != nil {
		t.Fatal(err)
	}
}

// encodeRows writes rows as JSON with one row per line, for fixtures a
// reviewer can read.
func encodeRows(t *testing.T, rows *InfoRows) []byte {
	t.Helper()
	var b bytes.Buffer
	marshal := func(v any) []byte {
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false) // CHECK clauses hold < and >
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
	}
	field := func(name string, v any, last bool) {
		enc := marshal(v)
		fmt.Fprintf(&b, "  %q: %s", name, enc)
		if !last {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	list := func(name string, n int, row func(i int) any) {
		fmt.Fprintf(&b, "  %q: [", name)
		for i := range n {
			enc := marshal(row(i))
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "\n    %s", enc)
		}
		if n > 0 {
			b.WriteString("\n  ")
		}
		b.WriteString("],\n")
	}
	b.WriteString("{\n")
	field("version", rows.Version, false)
	field("database", rows.Database, false)
	list("tables", len(rows.Tables), func(i int) any { return rows.Tables[i] })
	list("columns", len(rows.Columns), func(i int) any { return rows.Columns[i] })
	list("statistics", len(rows.Statistics), func(i int) any { return rows.Statistics[i] })
	list("checks", len(rows.Checks), func(i int) any { return rows.Checks[i] })
	field("queries", rows.Queries, true)
	b.WriteString("}\n")
	return b.Bytes()
}
