package driver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/hostcode/sqlfile"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

// TestQuerySourceInParts lints a .sql query source of many parts, a dump of
// multi-row INSERTs with writes among them, as guard lint does, and checks
// that the rules that judge the file as a whole find no row load's tree
// held, while the findings are those of the whole file parsed and judged at
// once, each at its own line: decrements at the ends and starts of parts, a
// statement of many lines, semicolons inside a string and inside comments,
// a trigger between DELIMITER lines, a statement that does not parse, an
// UPDATE without WHERE, and one that backfills a column an ALTER of an
// earlier part adds.
func TestQuerySourceInParts(t *testing.T) {
	var b strings.Builder
	line := 1
	write := func(format string, args ...any) int {
		at := line
		s := fmt.Sprintf(format, args...)
		b.WriteString(s)
		line += strings.Count(s, "\n")
		return at
	}
	var decrements []int // the lines GQ002 reports
	loads := 0
	write("-- a dump; with a semicolon in its comment\nALTER TABLE t_sku ADD COLUMN flag INT NULL;\n")
	n := 6*scriptPart + 3
	for i := 2; i <= n; i++ { // the ALTER is statement 1
		switch {
		case i%scriptPart == 0 || i%scriptPart == 1: // the last of a part, the first of the next
			decrements = append(decrements, write("UPDATE t_sku SET stock = stock - %d WHERE id = %d;\n", i, i))
		case i == 2*scriptPart+5:
			decrements = append(decrements, write("/* a; b */ UPDATE t_sku\n  SET note = 'x;y',\n    stock = stock - 2\n  WHERE id = %d; -- c; d\n", i))
		case i == 3*scriptPart-1:
			write("DELIMITER $$\nCREATE TRIGGER tr BEFORE INSERT ON t_order FOR EACH ROW BEGIN SET NEW.qty = 1; END$$\nDELIMITER ;\n")
		case i == 3*scriptPart+7:
			write("INSERT INTO t_order VALUES (1, ;\n") // does not parse
		case i == 4*scriptPart+2:
			write("UPDATE t_sku SET note = NULL;\n") // GQ001
		case i == 5*scriptPart+3:
			write("UPDATE t_sku SET flag = 0;\n") // backfills the ALTER's column: no GQ001
		case i == 5*scriptPart+9:
			write("INSERT INTO t_sku (id, stock) VALUES (%d, 1) ON DUPLICATE KEY UPDATE stock = stock - 1;\n", i)
		default:
			loads++
			write("INSERT INTO t_order (id, sku_id, qty, pay_no) VALUES\n  (%d, 7, 1, 'P;%d'),\n  (%d, 8, 2, NULL);\n", 2*i, i, 2*i+1)
		}
	}
	f := sqlfile.ExtractSQL("dump.sql", []byte(b.String()))
	var queryRules []*lint.Rule
	for _, r := range rules.All() {
		if r.Kind == lint.KindQuery && !r.Live {
			queryRules = append(queryRules, r)
		}
	}
	sch := &schema.Schema{}

	// The whole file at once: every tree held while every rule runs.
	p := sqlparse.NewParser()
	whole := parseFile(p, f, nil)
	if len(whole) != n {
		t.Fatalf("%d statements, want %d", len(whole), n)
	}
	ref := newFileLint(queryRules, policy.Default(), sch, nil)
	ref.run(whole, true)
	ref.run(whole, false)
	want := ref.kept.done()

	// In parts, with spies: one judges each part, one the whole file.
	parts, trees, seen := 0, 0, 0
	partSpy := &lint.Rule{Code: "GX001", Name: "part-spy", Kind: lint.KindQuery, PerStatement: true, Run: func(pass *lint.Pass) error {
		parts++
		if len(pass.Statements) > scriptPart {
			t.Errorf("a part of %d statements", len(pass.Statements))
		}
		return nil
	}}
	fileSpy := &lint.Rule{Code: "GX002", Name: "file-spy", Kind: lint.KindQuery, Run: func(pass *lint.Pass) error {
		seen = len(pass.Statements)
		for _, st := range pass.Statements {
			if st.Node != nil {
				trees++
			}
		}
		return nil
	}}
	fl := newFileLint(append(queryRules, partSpy, fileSpy), policy.Default(), sch, nil)
	res := parseExtracted(sqlparse.NewParser(), f, nil, nil, sch, nil, fl)
	if res.err != nil {
		t.Fatal(res.err)
	}
	if parts < n/scriptPart || res.statements != n || seen != n {
		t.Errorf("%d parts, %d statements, %d judged as a whole; want %d parts or more, %d statements", parts, res.statements, seen, n/scriptPart, n)
	}
	// The ALTER, the writes and the upsert keep their trees; the trigger
	// (a stored program the parser does not read) and the bad statement
	// have none; no row load keeps its own.
	if held := n - loads - 2; trees != held {
		t.Errorf("the rules that judge the file as a whole saw %d trees, want %d (of %d row loads none)", trees, held, loads)
	}
	got := res.findings
	lint.Order(want)
	lint.Order(got)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("findings in parts differ from the whole file's (-whole +parts):\n%s", d)
	}
	var gotLines []int
	codes := map[string]int{}
	for _, fd := range got {
		codes[fd.Code]++
		if fd.Code == "GQ002" && !strings.Contains(fd.SQL, "ON DUPLICATE") {
			gotLines = append(gotLines, fd.Line)
		}
	}
	if d := cmp.Diff(decrements, gotLines); d != "" {
		t.Errorf("GQ002 lines (-want +got):\n%s", d)
	}
	if codes["GQ001"] != 1 || codes["GQ009"] != 2 {
		t.Errorf("%d GQ001 and %d GQ009 findings, want 1 (the UPDATE without WHERE) and 2 (the trigger, the bad INSERT): %v", codes["GQ001"], codes["GQ009"], codes)
	}
}
