package golang

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/stmt"
)

// execCase is a function body running upd, a conditional UPDATE; want is the
// Exec the fragment must get.
type execCase struct {
	name string
	body []string
	want *stmt.Exec
}

func TestExtractGoExecFacts(t *testing.T) {
	checked := func(m string) *stmt.Exec { return &stmt.Exec{Method: m, ResultChecked: true} }
	unchecked := func(m string) *stmt.Exec { return &stmt.Exec{Method: m} }
	discarded := func(m string) *stmt.Exec { return &stmt.Exec{Method: m, ResultDiscarded: true} }
	cases := []execCase{
		{"statement of its own", []string{
			"db.Exec(upd)",
		}, discarded("Exec")},
		{"deferred", []string{
			"defer tx.Exec(upd)",
		}, discarded("Exec")},
		{"assigned to blank", []string{
			"_, err := db.ExecContext(ctx, upd, 1)",
			"return err",
		}, discarded("ExecContext")},
		{"blank in if init", []string{
			"if _, err := tx.ExecContext(ctx, upd); err != nil {",
			"	return err",
			"}",
			"return nil",
		}, discarded("ExecContext")},
		{"result never used", []string{
			"res, err := db.Exec(upd)",
			"_ = res",
			"return err",
		}, unchecked("Exec")},
		{"RowsAffected called, only err looked at", []string{
			"res, _ := db.Exec(upd)",
			"n, err := res.RowsAffected()",
			"log.Println(n)",
			"return err",
		}, unchecked("Exec")},
		{"RowsAffected as a statement", []string{
			"res, _ := db.Exec(upd)",
			"res.RowsAffected()",
			"res.LastInsertId()",
			"return nil",
		}, unchecked("Exec")},
		{"result compared to nil is not a check", []string{
			"res, _ := db.Exec(upd)",
			"if res == nil { return nil }",
			"return nil",
		}, unchecked("Exec")},
		{"count assigned then compared", []string{
			"res, err := db.ExecContext(ctx, upd)",
			"if err != nil { return err }",
			"affected, err := res.RowsAffected()",
			"if err != nil { return err }",
			"if affected == 0 { return ErrConflict }",
			"return nil",
		}, checked("ExecContext")},
		{"count in if init", []string{
			"result, err := tx.Exec(upd)",
			"if err != nil { return err }",
			"if n, _ := result.RowsAffected(); n != 1 { return ErrConflict }",
			"return nil",
		}, checked("Exec")},
		{"count assigned with = and compared through an alias and a conversion", []string{
			"var n int64",
			"var res sql.Result",
			"res, _ = db.Exec(upd)",
			"n, _ = res.RowsAffected()",
			"m := n",
			"if int(m) < 1 { return ErrConflict }",
			"return nil",
		}, checked("Exec")},
		{"switch on the count", []string{
			"res, _ := db.Exec(upd)",
			"n, _ := res.RowsAffected()",
			"switch n {",
			"case 1:",
			"	return nil",
			"}",
			"return ErrConflict",
		}, checked("Exec")},
		{"count in a switch case", []string{
			"res, _ := db.Exec(upd)",
			"switch n, _ := res.RowsAffected(); {",
			"case n >= 1:",
			"}",
			"return nil",
		}, checked("Exec")},
		{"result returned to the caller", []string{
			"res, err := db.Exec(upd)",
			"return res, err",
		}, checked("Exec")},
		{"call returned directly", []string{
			"return tx.ExecContext(ctx, upd)",
		}, checked("ExecContext")},
		{"count returned to the caller", []string{
			"res, err := db.Exec(upd)",
			"if err != nil { return 0, err }",
			"return res.RowsAffected()",
		}, checked("Exec")},
		{"result passed to a helper", []string{
			"res, err := db.Exec(upd)",
			"return expectOne(res, err)",
		}, checked("Exec")},
		{"call passed to a helper", []string{
			"return expectOne(db.Exec(upd))",
		}, checked("Exec")},
		{"count passed to a function is not a check", []string{
			"res, _ := db.Exec(upd)",
			"return expectOne(res.RowsAffected())",
		}, unchecked("Exec")},
		{"sqlx MustExec chained", []string{
			"if n, _ := db.MustExec(upd).RowsAffected(); n == 0 { return ErrConflict }",
			"return nil",
		}, checked("MustExec")},
		{"sqlx NamedExec", []string{
			"r, err := db.NamedExec(upd, arg)",
			"if err != nil { return err }",
			"if c, _ := r.RowsAffected(); c > 0 { return nil }",
			"return ErrConflict",
		}, checked("NamedExec")},
		{"sqlx package function NamedExecContext", []string{
			"sqlx.NamedExecContext(ctx, db, upd, arg)",
		}, discarded("NamedExecContext")},
		{"method value on tx", []string{
			"exec := tx.ExecContext",
			"res, _ := exec(ctx, upd)",
			"if n, _ := res.RowsAffected(); n != 1 { return ErrConflict }",
			"return nil",
		}, checked("ExecContext")},
		{"result checked inside a closure", []string{
			"return withTx(func(tx *sql.Tx) error {",
			"	res, err := tx.Exec(upd)",
			"	if err != nil { return err }",
			"	if n, _ := res.RowsAffected(); n == 0 { return ErrConflict }",
			"	return nil",
			"})",
		}, checked("Exec")},
		{"result ignored inside a closure", []string{
			"return withTx(func(tx *sql.Tx) error {",
			"	_, err := tx.Exec(upd)",
			"	return err",
			"})",
		}, discarded("Exec")},
		{"result stored in a field", []string{
			"var out struct{ res sql.Result }",
			"out.res, _ = db.Exec(upd)",
			"return out",
		}, checked("Exec")},
		{"local variable holding the SQL, rebound", []string{
			"q := upd",
			"q2, args, _ := sqlx.In(q, ids)",
			"_, err := db.Exec(db.Rebind(q2), args...)",
			"return err",
		}, discarded("Exec")},
		{"prepared statement", []string{
			"stmt, _ := db.PrepareContext(ctx, upd)",
			"res, _ := tx.StmtContext(ctx, stmt).ExecContext(ctx, 5)",
			"if n, _ := res.RowsAffected(); n != 1 { return ErrConflict }",
			"return nil",
		}, checked("ExecContext")},
		{"one site checks, another does not", []string{
			"res, _ := db.Exec(upd)",
			"if n, _ := res.RowsAffected(); n != 1 { return ErrConflict }",
			"db.Exec(upd)",
			"return nil",
		}, &stmt.Exec{Method: "Exec", ResultDiscarded: true}},
		{"Query is not an Exec", []string{
			"rows, _ := db.Query(upd)",
			"return rows",
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := goSrc(append([]string{
				"package p",
				"import \"github.com/jmoiron/sqlx\"",
				"const upd = \"UPDATE t SET q = q - 1, version = version + 1 WHERE id = ? AND version = ?\"",
				"func f() error {",
			}, append(tc.body, "}")...)...)
			f := ExtractGo("dao.go", []byte(src))
			if len(f.Fragments) != 1 {
				t.Fatalf("got %d fragments, want 1: %+v", len(f.Fragments), goViews(f))
			}
			fr := f.Fragments[0]
			if fr.ID != "upd" || fr.Line != 3 {
				t.Errorf("fragment %q at line %d, want upd at line 3", fr.ID, fr.Line)
			}
			if diff := cmp.Diff(tc.want, fr.Exec); diff != "" {
				t.Errorf("Exec (-want +got):\n%s\n%s", diff, src)
			}
		})
	}
}

func TestExtractGoLiteralExec(t *testing.T) {
	runGoCases(t, []goCase{
		{
			name: "literal and local variable in the same function",
			src: goSrc(
				"package p",
				"func (d *DAO) Deduct(ctx context.Context) error {",
				"	q := ´UPDATE t SET q = q - 1 WHERE id = ? AND q >= 1´",
				"	res, err := d.db.ExecContext(ctx, q, 1)",
				"	if err != nil { return err }",
				"	if n, _ := res.RowsAffected(); n == 0 { return ErrInsufficient }",
				"	_, err = d.db.ExecContext(ctx, \"DELETE FROM log WHERE id = ?\", 1)",
				"	return err",
				"}",
			),
			want: []goView{
				{Line: 3, EndLine: 3, ID: "DAO.Deduct", SQL: "UPDATE t SET q = q - 1 WHERE id = ? AND q >= 1",
					Exec: &stmt.Exec{Method: "ExecContext", ResultChecked: true}},
				{Line: 7, EndLine: 7, ID: "DAO.Deduct", SQL: "DELETE FROM log WHERE id = ?",
					Exec: &stmt.Exec{Method: "ExecContext", ResultDiscarded: true}},
			},
		},
		{
			name: "dynamic SQL reaching Exec gets the facts too",
			src: goSrc(
				"package p",
				"func f(table string) error {",
				"	res, err := db.Exec(\"UPDATE \" + table + \" SET q = 0\")",
				"	_ = res",
				"	return err",
				"}",
			),
			want: []goView{{Line: 3, EndLine: 3, ID: "f", Unchecked: "SQL concatenated with non-constant expression `table`",
				Exec: &stmt.Exec{Method: "Exec"}}},
		},
	})
}

func TestExtractGoSuppressions(t *testing.T) {
	src := goSrc(
		"package p",
		"func f() {",
		"	// guard:ignore GQ007 read lock on one node only",
		"	db.Query(\"SELECT id FROM t FOR UPDATE\")",
		"	/* guard:ignore gq011 the caller checks */ db.Exec(\"DELETE FROM t WHERE id = 1\")",
		"	//guard:ignore GQ001",
		"	// guard: not a suppression",
		"}",
	)
	f := ExtractGo("dao.go", []byte(src))
	want := []stmt.Suppression{
		{Code: "GQ007", Reason: "read lock on one node only", Line: 3, Col: 2},
		{Code: "GQ011", Reason: "the caller checks", Line: 5, Col: 2},
		{Code: "GQ001", Reason: "", Line: 6, Col: 2},
	}
	if diff := cmp.Diff(want, f.Suppressions); diff != "" {
		t.Errorf("suppressions (-want +got):\n%s", diff)
	}
	if len(f.Fragments) != 2 {
		t.Errorf("got %d fragments, want 2", len(f.Fragments))
	}
}

func TestExtractGoPositions(t *testing.T) {
	src := goSrc(
		"package p",
		"var deduct = ´UPDATE t",
		"	SET q = q - 1",
		"  WHERE id = ?´",
		"func f() {",
		"	db.Query(\"SELECT\\t`a`\\nFROM t WHERE b = \\\"x\\\" AND c = 1\")",
		"}",
		"const split = \"SELECT a \" +",
		"	\"FROM t \" + /* note */ ´WHERE´ +",
		"	\" id = ?\"",
	)
	lines := strings.Split(src, "\n")
	f := ExtractGo("dao.go", []byte(src))
	if len(f.Fragments) != 3 {
		t.Fatalf("got %d fragments, want 3: %+v", len(f.Fragments), goViews(f))
	}
	// Every probe is a word of the SQL; its position must point at the same
	// word in the file.
	probes := []struct {
		frag int
		word string
		line int
		col  int
	}{
		{0, "UPDATE", 2, 15},
		{0, "SET", 3, 2},
		{0, "q - 1", 3, 10},
		{0, "WHERE", 4, 3},
		{0, "?", 4, 14},
		{1, "SELECT", 6, 12},
		{1, "`a`", 6, 20},
		{1, "FROM", 6, 25},
		{1, "\"x\"", 6, 42},
		{1, "AND", 6, 48},
		{2, "SELECT", 8, 16},
		{2, "FROM", 9, 3},
		{2, "WHERE", 9, 26},
		{2, "id", 10, 4},
	}
	for _, p := range probes {
		fr := f.Fragments[p.frag]
		off := strings.Index(fr.SQL, p.word)
		if off < 0 {
			t.Fatalf("%q not in %q", p.word, fr.SQL)
		}
		line, col := fr.Pos(off)
		if line != p.line || col != p.col {
			t.Errorf("Pos(%q) = %d:%d, want %d:%d", p.word, line, col, p.line, p.col)
			continue
		}
		// Words without escapes stand verbatim in the file.
		if !strings.ContainsAny(p.word, "\"") && !strings.HasPrefix(lines[line-1][col-1:], p.word) {
			t.Errorf("file at %d:%d is %q, want %q", line, col, lines[line-1][col-1:], p.word)
		}
	}
}

func TestExtractGoCRLF(t *testing.T) {
	src := strings.ReplaceAll(goSrc(
		"package p",
		"var q = ´SELECT a",
		"  FROM t´",
	), "\n", "\r\n")
	f := ExtractGo("dao.go", []byte(src))
	if len(f.Fragments) != 1 {
		t.Fatalf("got %d fragments", len(f.Fragments))
	}
	fr := f.Fragments[0]
	if fr.SQL != "SELECT a\n  FROM t" {
		t.Errorf("SQL = %q", fr.SQL)
	}
	if line, col := fr.Pos(strings.Index(fr.SQL, "FROM")); line != 3 || col != 3 {
		t.Errorf("Pos(FROM) = %d:%d, want 3:3", line, col)
	}
	// A carriage return inside a line is dropped from the SQL, not from the columns.
	f = ExtractGo("dao.go", []byte("package p\nvar q = `SELECT a,\r b FROM t`\n"))
	if len(f.Fragments) != 1 || f.Fragments[0].SQL != "SELECT a, b FROM t" {
		t.Fatalf("fragments = %+v", goViews(f))
	}
	if line, col := f.Fragments[0].Pos(strings.Index(f.Fragments[0].SQL, "b")); line != 2 || col != 21 {
		t.Errorf("Pos(b) = %d:%d, want 2:21", line, col)
	}
}

func TestExtractGoBrokenFile(t *testing.T) {
	cases := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"package p\nfunc f() {\n\tx := \n}\n", 4, 1, "go: cannot parse file: expected operand, found '}'"},
		{"", 1, 1, "go: cannot parse file: expected 'package', found 'EOF'"},
		{"package p\nvar q = \"UPDATE t\n", 2, 9, "go: cannot parse file: string literal not terminated"},
	}
	for _, tc := range cases {
		f := ExtractGo("bad.go", []byte(tc.src))
		want := []*stmt.Fragment{{File: "bad.go", Lang: stmt.LangGo, Line: tc.line, EndLine: tc.line, Col: tc.col, Unchecked: tc.msg}}
		if diff := cmp.Diff(want, f.Fragments); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.src, diff)
		}
	}
}

func TestExtractGoFixture(t *testing.T) {
	src := goReadFixture(t, "testdata/go/inventory_dao.go")
	f := ExtractGo("inventory_dao.go", src)
	var got []string
	for _, fr := range f.Fragments {
		s := fmt.Sprintf("%d %s", fr.Line, fr.ID)
		if fr.Unchecked != "" {
			s += " unchecked: " + fr.Unchecked
		}
		if fr.Exec != nil {
			s += fmt.Sprintf(" %s checked=%v discarded=%v", fr.Exec.Method, fr.Exec.ResultChecked, fr.Exec.ResultDiscarded)
		}
		got = append(got, s)
	}
	want := []string{
		"22 getInventory",
		"25 deductGuarded ExecContext checked=true discarded=false",
		"69 InventoryDAO.DeductUnderLock ExecContext checked=false discarded=true",
		"76 InventoryDAO.SetStatus ExecContext checked=true discarded=false",
		"97 InventoryDAO.Search unchecked: SQL built at run time with fmt.Sprintf",
		"106 InventoryDAO.Restock ExecContext checked=true discarded=false",
		"111 InventoryDAO.Purge unchecked: SQL concatenated with non-constant expression `table` MustExecContext checked=false discarded=true",
		"117 InventoryDAO.PayOrder NamedExecContext checked=true discarded=false",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fragments (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]stmt.Suppression{{Code: "GQ004", Reason: "restock is serialised by the warehouse job", Line: 105, Col: 2}}, f.Suppressions); diff != "" {
		t.Errorf("suppressions (-want +got):\n%s", diff)
	}
}

func goReadFixture(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
