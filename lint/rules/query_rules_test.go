package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// findingPlace is the part of a finding the fixtures' want comments do not see.
type findingPlace struct {
	Line, Column, EndLine int
	Table, ColumnName     string
}

// colOf returns the 1-based column of needle on line of file.
func colOf(t *testing.T, file string, line int, needle string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if line < 1 || line > len(lines) {
		t.Fatalf("%s has no line %d", file, line)
	}
	k := strings.Index(lines[line-1], needle)
	if k < 0 {
		t.Fatalf("%s:%d has no %q", file, line, needle)
	}
	return k + 1
}

// culprit is where a finding's message says the problem stands: the 1-based
// column of needle on line.
type culprit struct {
	line   int
	needle string
}

// TestQueryFindingPlaces checks what the fixtures' want comments cannot: the
// column a finding points at, its last line, the table and column it names,
// and, for a finding standing at its statement, the exact place of the
// culprit its message names.
func TestQueryFindingPlaces(t *testing.T) {
	tests := []struct {
		code, file string
		line       int
		needle     string       // the finding's column is where needle starts on line
		want       findingPlace // Column filled from needle
		at         culprit      // the message must say "at L:C" of it; zero: no place in the message
	}{
		// GQ007: the statement's start; OF names the locked table by alias.
		{"GQ007", "queries.sql", 2, "SELECT", findingPlace{Line: 2, EndLine: 2, Table: "t_inventory"}, culprit{}},
		{"GQ007", "queries.sql", 12, "SELECT", findingPlace{Line: 12, EndLine: 15, Table: "t_order"}, culprit{}},
		{"GQ007", "queries.sql", 21, "SELECT", findingPlace{Line: 21, EndLine: 21, Table: "t_inventory"}, culprit{}},
		{"GQ007", "dao.go", 12, "SELECT", findingPlace{Line: 12, EndLine: 12, Table: "t_inventory"}, culprit{}},
		// GQ008: one finding per counter column, on the INSERT's table.
		{"GQ008", "queries.sql", 4, "INSERT", findingPlace{Line: 4, EndLine: 6, Table: "t_account", ColumnName: "balance"}, culprit{}},
		{"GQ008", "queries.sql", 22, "INSERT", findingPlace{Line: 22, EndLine: 22, Table: "t_wallet", ColumnName: "points"}, culprit{}},
		{"GQ008", "InventoryMapper.xml", 4, "INSERT", findingPlace{Line: 4, EndLine: 6, Table: "t_inventory", ColumnName: "inventory"}, culprit{}},
		// GQ009: a parse error stands at the statement, in a .sql file, a Go
		// literal or a migration, and its message names the token the parser
		// stopped at; dynamic SQL stands at the expression that builds it.
		{"GQ009", "queries.sql", 2, "SELECT", findingPlace{Line: 2, EndLine: 2}, culprit{2, "FRO x"}},
		{"GQ009", "queries.sql", 5, "UPDATE", findingPlace{Line: 5, EndLine: 7}, culprit{7, "RETURNING"}},
		{"GQ009", "dao.go", 37, "UPDATE", findingPlace{Line: 37, EndLine: 37}, culprit{37, "AN inventory"}},
		{"GQ009", "migrations/000002_version_trigger.up.sql", 2, "CREATE", findingPlace{Line: 2, EndLine: 2}, culprit{2, "TRIGGER"}},
		{"GQ009", "dao.go", 12, "fmt.Sprintf", findingPlace{Line: 12, EndLine: 12}, culprit{}},
		{"GQ009", "InventoryRepository.java", 14, `"UPDATE`, findingPlace{Line: 14, EndLine: 14}, culprit{}},
		{"GQ009", "InventoryRepository.java", 19, `"UPDATE`, findingPlace{Line: 19, EndLine: 20}, culprit{}},
		// GQ010: each ${…} at its statement, the message naming where it
		// stands; two in one statement are two findings.
		{"GQ010", "InventoryMapper.xml", 17, "SELECT", findingPlace{Line: 17, EndLine: 19}, culprit{19, "${orderColumn}"}},
		{"GQ010", "InventoryMapper.xml", 17, "SELECT", findingPlace{Line: 17, EndLine: 19}, culprit{19, "${direction}"}},
		{"GQ010", "InventoryMapper.xml", 23, "UPDATE", findingPlace{Line: 23, EndLine: 24}, culprit{23, "${n}"}},
		{"GQ010", "InventoryMapper.xml", 29, "UPDATE", findingPlace{Line: 29, EndLine: 36}, culprit{35, "${extra}"}},
		{"GQ010", "InventoryMapper.java", 13, "UPDATE", findingPlace{Line: 13, EndLine: 13}, culprit{13, "${condition}"}},
		{"GQ010", "InventoryMapper.java", 17, "SELECT", findingPlace{Line: 17, EndLine: 19}, culprit{19, "${sort}"}},
		// GQ011: the table and the column the guard bears on.
		{"GQ011", "dao.go", 75, "UPDATE", findingPlace{Line: 75, EndLine: 75, Table: "t_inventory", ColumnName: "inventory"}, culprit{}},
		{"GQ011", "dao.go", 110, "UPDATE", findingPlace{Line: 110, EndLine: 110, Table: "t_order", ColumnName: "version"}, culprit{}},
		{"GQ011", "dao.go", 116, "UPDATE", findingPlace{Line: 116, EndLine: 118, Table: "t_order", ColumnName: "status"}, culprit{}},
		{"GQ011", "dao.go", 132, "DELETE", findingPlace{Line: 132, EndLine: 132, Table: "t_order", ColumnName: "status"}, culprit{}},
		{"GQ011", "dao.go", 138, "UPDATE", findingPlace{Line: 138, EndLine: 138, Table: "t_wallet", ColumnName: "points"}, culprit{}},
	}
	results := map[string][]lint.Finding{}
	for _, tt := range tests {
		if _, ok := results[tt.code]; ok {
			continue
		}
		res, err := driver.Run(driver.Config{Paths: []string{filepath.Join("testdata", tt.code)}, Policy: policy.Default(), Rules: All(), Learn: Learn})
		if err != nil {
			t.Fatal(err)
		}
		results[tt.code] = res.Findings
	}
	for _, tt := range tests {
		file := filepath.ToSlash(filepath.Join("testdata", tt.code, tt.file))
		want := tt.want
		want.Column = colOf(t, file, tt.line, tt.needle)
		// at matches "at L:C" as a whole, so that 2:4 does not pass for 2:48.
		var at *regexp.Regexp
		if tt.at.needle != "" {
			at = regexp.MustCompile(fmt.Sprintf(`\bat %d:%d\b`, tt.at.line, colOf(t, file, tt.at.line, tt.at.needle)))
		}
		var got []string
		found := false
		for _, f := range results[tt.code] {
			if f.Code != tt.code || f.File != file || f.Line != tt.line {
				continue
			}
			g := findingPlace{f.Line, f.Column, f.EndLine, f.Table, f.ColumnName}
			got = append(got, fmt.Sprintf("%+v %q", g, f.Message))
			found = found || g == want && (at == nil || at.MatchString(f.Message))
		}
		if !found {
			t.Errorf("%s %s:%d: no finding %+v with a message matching %v; got %q", tt.code, file, tt.line, want, at, got)
		}
	}
}

// runQueryRule runs rule on statements and migrations built by hand, so the rule
// is tested apart from the extractors.
func runQueryRule(t *testing.T, rule *lint.Rule, stmts []*lint.Statement, migs []*lint.Migration) []lint.Finding {
	t.Helper()
	var out []lint.Finding
	pass := lint.NewPass(rule, policy.Default(), nil, stmts, migs, nil, func(f lint.Finding) { out = append(out, f) })
	if err := rule.Run(pass); err != nil {
		t.Fatal(err)
	}
	return out
}

// queryStmt builds a parsed statement of fr standing at fr.Line, column 1.
func queryStmt(t *testing.T, fr *stmt.Fragment, sql string, line, endLine int) *lint.Statement {
	t.Helper()
	st := &lint.Statement{Fragment: fr, SQL: sql, File: fr.File, Line: line, Column: 1, EndLine: endLine}
	node, err := sqlparse.NewParser().Parse(sql)
	if err != nil {
		st.ParseErr = err.(*sqlparse.Error)
	} else {
		st.Node = node
	}
	return st
}

// queryBrief is what the synthetic tests compare of a finding.
type queryBrief struct {
	File              string
	Line, Column      int
	Table, ColumnName string
	Message           string
	SQL               string
}

func queryBriefs(fs []lint.Finding) []queryBrief {
	var out []queryBrief
	for _, f := range fs {
		out = append(out, queryBrief{f.File, f.Line, f.Column, f.Table, f.ColumnName, f.Message, f.SQL})
	}
	return out
}

func TestNotCheckedNeverSilent(t *testing.T) {
	sqlFile := &stmt.Fragment{File: "q.sql", Lang: stmt.LangSQL, Line: 1, Col: 1,
		SQL: "SELECT 1;\nUPDATE t SET a = 1 WHERE id = ? FRO x", Segments: []stmt.Segment{{Off: 0, Line: 1, Col: 1}}}
	good := queryStmt(t, sqlFile, "SELECT 1", 1, 1)
	bad := queryStmt(t, sqlFile, "UPDATE t SET a = 1 WHERE id = ? FRO x", 2, 2)
	bad.Offset = len("SELECT 1;\n")
	dynamic := &lint.Statement{
		Fragment: &stmt.Fragment{File: "dao.go", Lang: stmt.LangGo, Unchecked: "SQL built at run time with fmt.Sprintf", Line: 7, Col: 9, EndLine: 8},
		File:     "dao.go", Line: 7, Column: 9, EndLine: 8,
	}
	migFile := &stmt.Fragment{File: "m/000002_t.up.sql", Lang: stmt.LangSQL, Line: 1, Col: 1,
		SQL: "CREATE TRIGGER x BEFORE UPDATE ON t FOR EACH ROW SET NEW.v = 1", Segments: []stmt.Segment{{Off: 0, Line: 1, Col: 1}}}
	mig := queryStmt(t, migFile, migFile.SQL, 1, 1)

	tests := []struct {
		name  string
		stmts []*lint.Statement
		migs  []*lint.Migration
		want  []queryBrief
	}{
		{"valid statement", []*lint.Statement{good}, nil, nil},
		{"parse error at the statement, naming the culprit", []*lint.Statement{good, bad}, nil, []queryBrief{{
			File: "q.sql", Line: 2, Column: 1,
			Message: fmt.Sprintf(`not checked: SQL does not parse at 2:%d: syntax error near "FRO x"; the statement may use syntax guard does not know, so no rule checked it`,
				len("UPDATE t SET a = 1 WHERE id = ? ")+1),
			SQL: "UPDATE t SET a = 1 WHERE id = ? FRO x",
		}}},
		{"dynamic SQL says why", []*lint.Statement{dynamic}, nil, []queryBrief{{
			File: "dao.go", Line: 7, Column: 9, Message: "not checked: SQL built at run time with fmt.Sprintf",
		}}},
		{"migration statement", nil, []*lint.Migration{{File: migFile.File, Version: 2, Statements: []*lint.Statement{mig}}}, []queryBrief{{
			File: migFile.File, Line: 1, Column: 1,
			Message: fmt.Sprintf(`not checked: CREATE TRIGGER x is a stored program; guard does not read the statements of its body (the parser stopped at 1:%d: syntax error near "TRIGGER x BEFORE UPDATE ON t FOR EACH ROW SET NEW.v = 1"), so no rule checked them`,
				len("CREATE ")+1),
			SQL: migFile.SQL,
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := queryBriefs(runQueryRule(t, NotChecked, tt.stmts, tt.migs))
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
		})
	}
}

// TestNotCheckedLongNameIsError: a name the server refuses is an error,
// GQ009's warning being for statements guard could not read, unless the
// policy sets GQ009; a statement of the longest names accepted is nothing.
func TestNotCheckedLongNameIsError(t *testing.T) {
	fr := &stmt.Fragment{File: "m/000001_t.up.sql", Lang: stmt.LangSQL, Line: 1, Col: 1, Segments: []stmt.Segment{{Off: 0, Line: 1, Col: 1}}}
	long := queryStmt(t, fr, "CREATE TABLE t (id INT, KEY ix_"+strings.Repeat("k", 62)+" (id))", 1, 1)
	fits := queryStmt(t, fr, "CREATE TABLE t (id INT, KEY ix_"+strings.Repeat("k", 61)+" (id))", 1, 1)
	for _, tt := range []struct {
		name   string
		policy string
		want   policy.Severity
	}{{"default", "", policy.SevError}, {"policy lowers GQ009", "GQ009 = \"info\"", policy.SevInfo}} {
		pol := policy.Default()
		if tt.policy != "" {
			path := filepath.Join(t.TempDir(), "policies.toml")
			if err := os.WriteFile(path, []byte("version = 1\n[rules]\n"+tt.policy+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			var err error
			if pol, err = policy.Load(path); err != nil {
				t.Fatal(err)
			}
		}
		var got []lint.Finding
		migs := []*lint.Migration{{File: fr.File, Version: 1, Statements: []*lint.Statement{long, fits}}}
		if err := NotChecked.Run(lint.NewPass(NotChecked, pol, nil, nil, migs, nil, func(f lint.Finding) { got = append(got, f) })); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Severity != tt.want || got[0].Code != "GQ009" ||
			!strings.Contains(got[0].Message, "the index name ix_"+strings.Repeat("k", 62)+" is 65 characters long, over the limit of 64") {
			t.Errorf("%s: findings %+v, want one GQ009 %s on the index name", tt.name, got, tt.want)
		}
	}
}

func TestMybatisDollarOncePerStatement(t *testing.T) {
	dollar := stmt.Dollar{Expr: "col", Line: 4, Col: 18}
	variant := func(name string) *stmt.Fragment {
		return &stmt.Fragment{File: "M.xml", Lang: stmt.LangXML, Line: 2, EndLine: 5, Variant: name, Dollar: []stmt.Dollar{dollar}}
	}
	v1, v2 := variant("with every optional condition absent"), variant("with every optional condition present")
	// A fragment holding two statements: each ${…} belongs to the one whose lines hold it.
	two := &stmt.Fragment{File: "M.xml", Lang: stmt.LangXML, Line: 10, EndLine: 14, Dollar: []stmt.Dollar{
		{Expr: "a", Line: 13, Col: 5}, {Expr: "b", Line: 20, Col: 1},
	}}
	// Two substitutions in one statement: one finding names both.
	pair := &stmt.Fragment{File: "M.xml", Lang: stmt.LangXML, Line: 30, EndLine: 32, Dollar: []stmt.Dollar{
		{Expr: "col", Line: 32, Col: 18}, {Expr: "dir", Line: 32, Col: 25},
	}}
	// msg is the message for ${e} standing at line:col.
	msg := func(e string, line, col int) string {
		return fmt.Sprintf("MyBatis ${%s} at %d:%d pastes a raw string into the SQL: an injection risk, and the statement the server runs cannot be checked; bind a value with #{%s}, or pick an identifier among constants of the mapper",
			e, line, col, e)
	}
	tests := []struct {
		name  string
		stmts []*lint.Statement
		want  []queryBrief
	}{
		{"variants report once", []*lint.Statement{
			queryStmt(t, v1, "SELECT a FROM t ORDER BY ?", 3, 4),
			queryStmt(t, v2, "SELECT a FROM t WHERE b = ? ORDER BY ?", 3, 4),
		}, []queryBrief{{File: "M.xml", Line: 3, Column: 1, Message: msg("col", 4, 18), SQL: "SELECT a FROM t ORDER BY ?"}}},
		{"owner statement by line", []*lint.Statement{
			queryStmt(t, two, "SELECT 1", 11, 11),
			queryStmt(t, two, "SELECT ?", 12, 13),
		}, []queryBrief{
			{File: "M.xml", Line: 12, Column: 1, Message: msg("a", 13, 5), SQL: "SELECT ?"},
			// Outside every statement's lines: the fragment's first statement.
			{File: "M.xml", Line: 11, Column: 1, Message: msg("b", 20, 1), SQL: "SELECT 1"},
		}},
		{"two substitutions in one statement", []*lint.Statement{
			queryStmt(t, pair, "SELECT a FROM t ORDER BY ? ?", 31, 32),
		}, []queryBrief{
			{File: "M.xml", Line: 31, Column: 1, Message: "MyBatis ${col} at 32:18 and ${dir} at 32:25 paste raw strings into the SQL: an injection risk, " +
				"and the statement the server runs cannot be checked; bind values with #{…}, or pick identifiers among constants of the mapper",
				SQL: "SELECT a FROM t ORDER BY ? ?"},
		}},
		{"no substitution", []*lint.Statement{
			queryStmt(t, &stmt.Fragment{File: "M.xml", Lang: stmt.LangXML, Line: 1}, "SELECT ?", 1, 1),
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := queryBriefs(runQueryRule(t, MybatisDollar, tt.stmts, nil))
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
		})
	}
}

// TestMybatisDollarCallerSupplied checks the seam for a generated
// ${orderByClause}: silent while nothing says a caller passes a value no
// check vouches for, reported once something does, for the property it
// names, with the setter as the finding's cause.
func TestMybatisDollarCallerSupplied(t *testing.T) {
	fr := &stmt.Fragment{File: "M.xml", Lang: stmt.LangXML, Line: 2, EndLine: 4, ID: "selectByExample",
		Dollar: []stmt.Dollar{{Expr: "orderByClause", Line: 3, Col: 14, CallerSupplied: "orderByClause"}}}
	stmts := []*lint.Statement{queryStmt(t, fr, "SELECT a FROM t ORDER BY ?", 2, 3)}
	setter := lint.Cause{File: "S.java", Line: 9, Col: 9, Call: "example.setOrderByClause(sort)", Unchecked: []string{"sort"}}
	run := func(setters func(*stmt.Fragment, string) []lint.Cause) []lint.Finding {
		var out []lint.Finding
		pass := lint.NewPass(MybatisDollar, policy.Default(), nil, stmts, nil, nil, func(f lint.Finding) { out = append(out, f) })
		pass.ClauseSetters = setters
		if err := MybatisDollar.Run(pass); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if fs := run(nil); len(fs) != 0 {
		t.Errorf("no knowledge of the callers: %d findings, want 0", len(fs))
	}
	fs := run(func(f *stmt.Fragment, prop string) []lint.Cause {
		if f.ID == "selectByExample" && prop == "orderByClause" {
			return []lint.Cause{setter}
		}
		return nil
	})
	if len(fs) != 1 {
		t.Fatalf("a caller passes an unchecked value: %d findings, want 1", len(fs))
	}
	const msg = "MyBatis ${orderByClause} at 3:14 pastes a raw string into the SQL: an injection risk, and the statement the " +
		"server runs cannot be checked; bind a value with #{orderByClause}, or pick an identifier among constants of the " +
		"mapper; set by example.setOrderByClause(sort) at S.java:9 from sort, which no check vouches for"
	if fs[0].Message != msg || len(fs[0].Causes) != 1 || fs[0].Causes[0].Call != setter.Call {
		t.Errorf("finding = %q causes %v, want %q caused by the setter", fs[0].Message, fs[0].Causes, msg)
	}
	if fs := run(func(*stmt.Fragment, string) []lint.Cause { return nil }); len(fs) != 0 {
		t.Errorf("every caller passes checked values: %d findings, want 0", len(fs))
	}
}

// TestMybatisDollarChecked checks that a substitution every value of which
// is checked before use is not reported.
func TestMybatisDollarChecked(t *testing.T) {
	fr := &stmt.Fragment{File: "M.xml", Lang: stmt.LangXML, Line: 2, EndLine: 4, ID: "page", Namespace: "shop.Q",
		Dollar: []stmt.Dollar{{Expr: "sort", Line: 3, Col: 14}, {Expr: "dir", Line: 3, Col: 22}}}
	stmts := []*lint.Statement{queryStmt(t, fr, "SELECT a FROM t ORDER BY ? ?", 2, 3)}
	var got []string
	pass := lint.NewPass(MybatisDollar, policy.Default(), nil, stmts, nil, nil, func(f lint.Finding) { got = append(got, f.Message) })
	pass.DollarChecked = func(_ *stmt.Fragment, d stmt.Dollar) bool { return d.Expr == "sort" }
	if err := MybatisDollar.Run(pass); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "MyBatis ${dir} at 3:22 pastes") {
		t.Errorf("findings = %q, want the unchecked ${dir} alone", got)
	}
}

// TestMybatisDollarMixed checks that a statement with a ${…} of its own
// and a clause a caller sets is one finding, at the statement, naming
// both and the setter: no cause to join it away.
func TestMybatisDollarMixed(t *testing.T) {
	fr := &stmt.Fragment{File: "M.xml", Lang: stmt.LangXML, Line: 2, EndLine: 4, ID: "selectByExample",
		Dollar: []stmt.Dollar{{Expr: "orderByClause", Line: 3, Col: 30, CallerSupplied: "orderByClause"}, {Expr: "col", Line: 3, Col: 14}}}
	stmts := []*lint.Statement{queryStmt(t, fr, "SELECT ? FROM t ORDER BY ?", 2, 3)}
	var got []lint.Finding
	pass := lint.NewPass(MybatisDollar, policy.Default(), nil, stmts, nil, nil, func(f lint.Finding) { got = append(got, f) })
	pass.ClauseSetters = func(*stmt.Fragment, string) []lint.Cause {
		return []lint.Cause{{File: "S.java", Line: 9, Col: 9, Call: "example.setOrderByClause(sort)", Unchecked: []string{"sort"}}}
	}
	if err := MybatisDollar.Run(pass); err != nil {
		t.Fatal(err)
	}
	const prefix = "MyBatis ${col} at 3:14 and ${orderByClause} at 3:30 paste raw strings"
	const suffix = "; set by example.setOrderByClause(sort) at S.java:9 from sort, which no check vouches for"
	if len(got) != 1 || !strings.HasPrefix(got[0].Message, prefix) || !strings.HasSuffix(got[0].Message, suffix) || got[0].Causes != nil {
		t.Errorf("findings = %+v, want one naming both substitutions and the setter, without causes", got)
	}
}

func TestRowsAffectedIgnoredExecFacts(t *testing.T) {
	const guarded = "UPDATE t_stock SET stock = stock - ? WHERE id = ? AND stock >= ?"
	goFrag := func(ex *stmt.Exec) *stmt.Fragment {
		return &stmt.Fragment{File: "dao.go", Lang: stmt.LangGo, Line: 3, Exec: ex}
	}
	tests := []struct {
		name string
		fr   *stmt.Fragment
		sql  string
		want string // message; "" for no finding
	}{
		{"checked", goFrag(&stmt.Exec{Method: "ExecContext", ResultChecked: true}), guarded, ""},
		{"no exec facts", goFrag(nil), guarded, ""},
		{"discarded", goFrag(&stmt.Exec{Method: "ExecContext", ResultDiscarded: true}), guarded,
			"ExecContext runs a guarded decrement of stock but the result is discarded: a write that matched no row returns err == nil, so the result's RowsAffected() must be compared (== 1 is success, anything else is a refusal)"},
		{"kept, never compared", goFrag(&stmt.Exec{}), guarded,
			"Exec runs a guarded decrement of stock but its RowsAffected() is never compared: a write that matched no row returns err == nil, so the result's RowsAffected() must be compared (== 1 is success, anything else is a refusal)"},
		{"unguarded counter write", goFrag(&stmt.Exec{Method: "Exec", ResultDiscarded: true}), "UPDATE t_stock s SET s.stock = s.stock - 1 WHERE s.id = ?", ""},
		{"absolute counter write by key", goFrag(&stmt.Exec{Method: "Exec", ResultDiscarded: true}), "UPDATE t_stock s SET s.stock = ? WHERE s.id = ?", ""},
		{"increment nothing refuses", goFrag(&stmt.Exec{Method: "Exec", ResultDiscarded: true}), "UPDATE t_stock s SET s.stock = s.stock + 1 WHERE s.id = ?", ""},
		{"increment of a negative amount", goFrag(&stmt.Exec{Method: "Exec", ResultDiscarded: true}), "UPDATE t_stock s SET s.stock = s.stock + -1 WHERE s.id = ?", ""},
		{"guarded increment of a negative amount", goFrag(&stmt.Exec{Method: "Exec", ResultDiscarded: true}), "UPDATE t_stock s SET s.stock = s.stock + -1 WHERE s.id = ? AND s.stock >= 1",
			"Exec runs a guarded decrement of stock but the result is discarded: a write that matched no row returns err == nil, so the result's RowsAffected() must be compared (== 1 is success, anything else is a refusal)"},
		{"bounded increment", goFrag(&stmt.Exec{Method: "Exec", ResultDiscarded: true}), "UPDATE t_stock s SET s.stock = s.stock + ? WHERE s.id = ? AND s.stock + ? <= 100",
			"Exec runs a write of counter stock but the result is discarded: a write that matched no row returns err == nil, so the result's RowsAffected() must be compared (== 1 is success, anything else is a refusal)"},
		{"version CAS", goFrag(&stmt.Exec{Method: "Exec", ResultDiscarded: true}), "UPDATE t_doc SET body = ?, version = version + 1 WHERE id = ? AND version = ?",
			"Exec runs a version CAS on version but the result is discarded: a write that matched no row returns err == nil, so the result's RowsAffected() must be compared (== 1 is success, anything else is a refusal)"},
		{"state set without state predicate", goFrag(&stmt.Exec{Method: "Exec", ResultDiscarded: true}), "UPDATE t_doc SET status = 'done' WHERE id = ?", ""},
		{"state predicate on another column", goFrag(&stmt.Exec{Method: "Exec", ResultDiscarded: true}), "UPDATE t_doc SET note = ? WHERE id = ? AND status = 'open'", ""},
		{"plain write", goFrag(&stmt.Exec{Method: "Exec", ResultDiscarded: true}), "UPDATE t_doc SET note = ? WHERE id = ?", ""},
		{"insert", goFrag(&stmt.Exec{Method: "Exec", ResultDiscarded: true}), "INSERT INTO t_stock (id, stock) VALUES (?, ?)", ""},
		{"unparsed", goFrag(&stmt.Exec{Method: "Exec", ResultDiscarded: true}), "UPDATE t_stock SET stock = stock - 1 WHERE id = ? AN stock > 0", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runQueryRule(t, RowsAffectedIgnored, []*lint.Statement{queryStmt(t, tt.fr, tt.sql, 3, 3)}, nil)
			var msgs []string
			for _, f := range got {
				msgs = append(msgs, f.Message)
			}
			var want []string
			if tt.want != "" {
				want = []string{tt.want}
			}
			if d := cmp.Diff(want, msgs); d != "" {
				t.Errorf("messages (-want +got):\n%s", d)
			}
		})
	}
}

func TestSelectForUpdateLockClauses(t *testing.T) {
	tests := []struct {
		sql, want string // want: the lock clause named, "" for no finding
	}{
		{"SELECT a FROM t WHERE id = 1 FOR UPDATE", "SELECT … FOR UPDATE"},
		{"SELECT a FROM t WHERE id = 1 LOCK IN SHARE MODE", "SELECT … FOR SHARE / LOCK IN SHARE MODE"},
		{"SELECT a FROM t WHERE id = 1 FOR UPDATE WAIT 3", "SELECT … FOR UPDATE WAIT n"},
		{"SELECT a FROM t WHERE id IN (SELECT id FROM u FOR SHARE SKIP LOCKED)", "SELECT … FOR SHARE SKIP LOCKED"},
		{"DELETE FROM t WHERE id IN (SELECT id FROM (SELECT id FROM u FOR UPDATE NOWAIT) x)", "SELECT … FOR UPDATE NOWAIT"},
		{"SELECT a FROM t WHERE id = 1", ""},
		{"UPDATE t SET a = 1 WHERE id = 1", ""},
	}
	fr := &stmt.Fragment{File: "q.sql", Lang: stmt.LangSQL, Line: 1}
	for _, tt := range tests {
		t.Run(tt.sql, func(t *testing.T) {
			var got []string
			for _, f := range runQueryRule(t, SelectForUpdate, []*lint.Statement{queryStmt(t, fr, tt.sql, 1, 1)}, nil) {
				clause, _, _ := strings.Cut(f.Message, " takes a row lock")
				got = append(got, clause)
			}
			var want []string
			if tt.want != "" {
				want = []string{tt.want}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("lock clauses (-want +got):\n%s", d)
			}
		})
	}
}

// TestNotCheckedGeneratedFix points the advice for a statement of a
// generated file at the generator's template and the policy, never at an
// edit of the file, and keeps the usual advice for a hand-written file.
func TestNotCheckedGeneratedFix(t *testing.T) {
	dir := filepath.Join("testdata", "GQ009")
	res, err := driver.Run(driver.Config{Paths: []string{dir}, Policy: policy.Default(), Rules: []*lint.Rule{NotChecked}})
	if err != nil {
		t.Fatal(err)
	}
	fixes := map[string]string{}
	for _, f := range res.Findings {
		if f.Code == "GQ009" && strings.HasPrefix(f.Message, "not checked: SQL built at run time with fmt.Sprintf") {
			fixes[filepath.Base(f.File)] = f.Fix
		}
	}
	checkFix(t, "generated file", fixes["inventory_model_gen.go"],
		[]string{"this file is generated (`// Code generated by goctl. DO NOT EDIT!`)", "template", "`[rules]`", "`[lint] exclude`"},
		[]string{"put `// guard:ignore", "write the statement as one constant string"})
	checkFix(t, "hand-written file", fixes["dao.go"],
		[]string{"write the statement as one constant string", "put `// guard:ignore GQ009 <reason>`"},
		[]string{"generated", "template"})
}
