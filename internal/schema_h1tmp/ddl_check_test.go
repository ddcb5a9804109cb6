package schema

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/sqlparse"
)

func TestNonNegativeColumns(t *testing.T) {
	tests := []struct {
		expr string
		want []string
	}{
		{"qty >= 0", []string{"qty"}},
		{"`Qty` >= 0", []string{"Qty"}},
		{"qty > -1", []string{"qty"}},
		{"0 <= qty", []string{"qty"}},
		{"-1 < qty", []string{"qty"}},
		{"qty >= 5", []string{"qty"}},
		{"qty >= 0.5", []string{"qty"}},
		{"qty > 0", []string{"qty"}},
		{"qty > 2.5", []string{"qty"}},
		{"qty BETWEEN 0 AND 100", []string{"qty"}},
		{"qty >= 0 AND balance >= 0 AND qty < 10", []string{"qty", "balance"}},
		{"(qty >= 0) && ((points) > -1)", []string{"qty", "points"}},
		{"qty >= +0", []string{"qty"}},
		{"qty >= 0 AND qty >= 1", []string{"qty"}},
		{"qty >= -1", nil},
		{"qty > -2", nil},
		{"qty > -0.5", nil},
		{"qty <= 0", nil},
		{"0 >= qty", nil},
		{"qty NOT BETWEEN 0 AND 5", nil},
		{"qty BETWEEN -1 AND 5", nil},
		{"qty >= 0 OR other >= 0", nil},
		{"NOT (qty >= 0)", nil},
		{"qty + 1 >= 0", nil},
		{"qty >= '0'", nil},
		{"qty >= other", nil},
		{"qty = 0", nil},
	}
	p := sqlparse.NewParser()
	for _, tt := range tests {
		e, err := parseExpr(p, tt.expr)
		if err != nil {
			t.Fatalf("%s: %v", tt.expr, err)
		}
		if diff := cmp.Diff(tt.want, NonNegativeColumns(e)); diff != "" {
			t.Errorf("NonNegativeColumns(%s) (-want +got):\n%s", tt.expr, diff)
		}
	}
	if got := NonNegativeColumns(nil); got != nil {
		t.Errorf("NonNegativeColumns(nil) = %v", got)
	}
}

func TestCheckFromText(t *testing.T) {
	tests := []struct {
		name, expr string
		enforced   bool
		want       *Check
	}{
		{"chk", "`qty` >= 0", true, &Check{Name: "chk", Expr: "`qty`>=0", Enforced: true, NonNegative: []string{"qty"}}},
		{"c", "(`Balance` >= 0 and `Points` > -1)", false, &Check{Name: "c", Expr: "`balance`>=0 AND `points`>-1", NonNegative: []string{"balance", "points"}}},
		{"n", "NOT (qty < 0)", true, &Check{Name: "n", Expr: "`qty`>=0", Enforced: true, NonNegative: []string{"qty"}}},
		{"j", "json_valid(`doc`)", true, &Check{Name: "j", Expr: "JSON_VALID(`doc`)", Enforced: true}},
	}
	for _, tt := range tests {
		got, err := CheckFromText(tt.name, tt.expr, tt.enforced)
		if err != nil {
			t.Fatalf("CheckFromText(%q): %v", tt.expr, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("CheckFromText(%q) (-want +got):\n%s", tt.expr, diff)
		}
	}
	for _, bad := range []string{"", "qty >=", "1 FROM t", "qty >= 0 AS x", "1, 2", "qty >= 0; DROP TABLE t"} {
		if _, err := CheckFromText("bad", bad, true); err == nil {
			t.Errorf("CheckFromText(%q) succeeded, want an error", bad)
		}
	}
	if _, err := CheckFromText("bad", "1 FROM t", true); !errors.Is(err, errNotExpr) {
		t.Errorf("CheckFromText(1 FROM t) = %v, want errNotExpr", err)
	}
}

// TestCheckCanonicalMatchesMariaDB holds CHECK expressions as written in DDL
// beside the text MariaDB 10.11 gives for them in
// information_schema.CHECK_CONSTRAINTS: both must give the same Check.
func TestCheckCanonicalMatchesMariaDB(t *testing.T) {
	tests := []struct{ written, server string }{
		{"qty >= 0", "`qty` >= 0"},
		{"((qty >= 0))", "`qty` >= 0"},
		{"(a > 0) AND (b >= 0)", "`a` > 0 and `b` >= 0"},
		{"status in ('a','b')", "`status` in ('a','b')"},
		{"q between 0 and 5", "`q` between 0 and 5"},
		{"(q + 1) * 2 > (q)", "(`q` + 1) * 2 > `q`"},
		{"q IS NOT NULL OR (status = 'a' AND q > 0)", "`q` is not null or `status` = 'a' and `q` > 0"},
		{"q >= 0 AND q < 1e3", "`q` >= 0 and `q` < 1e3"},
		{"q <> 3", "`q` <> 3"},
		{"s2 <> 'it''s'", "`s2` <> 'it\\'s'"},
		{"abs(q) >= 0 && q != 7", "abs(`q`) >= 0 and `q` <> 7"},
		{"NOT (q < 0)", "`q` >= 0"},
		{"NOT (q BETWEEN 1 AND 2)", "`q` not between 1 and 2"},
		{"NOT (q IN (1,2))", "`q` not in (1,2)"},
		{"NOT (q IS NULL)", "`q` is not null"},
		{"NOT q", "`q` = 0"},
		{"NOT (q = 1 AND r = 2)", "`q` <> 1 or `r` <> 2"},
		{"!(q <> 1)", "`q` = 1"},
		{"NOT (q LIKE 'a')", "`q`  not like 'a'"},
		{"NOT NOT (q > 1)", "`q` > 1"},
		{"NOT (q <=> 1)", "!(`q` <=> 1)"},
		{"NOT (q IS NOT NULL)", "`q` is null"},
		{"NOT(q > 0 OR r > 0)", "`q` <= 0 and `r` <= 0"},
		{"NOT json_valid(j)", "!json_valid(`j`)"},
		{"NOT (q+1)", "!(`q` + 1)"},
		{"NOT (q > 0 AND r IS NULL)", "`q` <= 0 or `r` is not null"},
		{"NOT(q <=> 1 AND r > 0)", "!(`q` <=> 1) or `r` <= 0"},
		{"NOT NOT q", "`q` <> 0"},
		{"NOT (NOT (q <=> 1))", "`q` <=> 1"},
		{"NOT (q AND r)", "`q` = 0 or `r` = 0"},
		{"NOT (q IS TRUE)", "!(`q` is true)"},
		{"NOT (j REGEXP 'a')", "!(`j` regexp 'a')"},
		{"NOT (q > 0) AND r > 0", "`q` <= 0 and `r` > 0"},
	}
	for _, tt := range tests {
		w, err := CheckFromText("c", tt.written, true)
		if err != nil {
			t.Fatalf("%s: %v", tt.written, err)
		}
		s, err := CheckFromText("c", tt.server, true)
		if err != nil {
			t.Fatalf("%s: %v", tt.server, err)
		}
		if diff := cmp.Diff(s, w); diff != "" {
			t.Errorf("CHECK (%s) differs from the server's %s (-server +written):\n%s", tt.written, tt.server, diff)
		}
	}
}

func TestCanonicalDefault(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"},
		{"-1.50", "-1.50"},
		{"'NEW'", "'NEW'"},
		{"'it''s'", "'it''s'"},
		{"NULL", "NULL"},
		{"current_timestamp()", "CURRENT_TIMESTAMP"},
		{"CURRENT_TIMESTAMP", "CURRENT_TIMESTAMP"},
		{"current_timestamp(3)", "CURRENT_TIMESTAMP(3)"},
		{"now()", "CURRENT_TIMESTAMP"},
		{"uuid()", "UUID()"},
		{"b'101'", "b'101'"},
		{"(1)", "1"},
	}
	for _, tt := range tests {
		got, err := CanonicalDefault(tt.in)
		if err != nil {
			t.Fatalf("CanonicalDefault(%q): %v", tt.in, err)
		}
		if got != tt.want {
			t.Errorf("CanonicalDefault(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if _, err := CanonicalDefault("1 +"); err == nil {
		t.Error("CanonicalDefault(1 +) succeeded, want an error")
	}
}

// TestDefaultConversion holds defaults as written and as MariaDB 10.11
// stores them for the column type (information_schema.COLUMNS.COLUMN_DEFAULT).
func TestDefaultConversion(t *testing.T) {
	tests := []struct{ col, def, want string }{
		{"INT", "'0'", "0"},
		{"INT", "1.5", "2"},
		{"INT UNSIGNED", "'7'", "7"},
		{"BIGINT", "-5", "-5"},
		{"TINYINT(1)", "TRUE", "1"},
		{"DECIMAL(10,2)", "0", "0.00"},
		{"DECIMAL(10,2)", "-1.5", "-1.50"},
		{"DECIMAL(6,3)", "'1.5'", "1.500"},
		{"NUMERIC(5)", "'7'", "7"},
		{"DOUBLE", "1e3", "1000"},
		{"DOUBLE", "1.25", "1.25"},
		{"FLOAT", "0.1", "0.1"},
		{"FLOAT(10,2)", "1", "1.00"},
		{"BIT(4)", "5", "b'101'"},
		{"BIT(1)", "b'0'", "b'0'"},
		{"VARCHAR(5)", "5", "'5'"},
		{"CHAR(2)", "x'4142'", "'AB'"},
		{"VARCHAR(5)", "''", "''"},
		{"SET('a','b')", "'a,b'", "'a,b'"},
		{"DATE", "'2020-01-01'", "'2020-01-01'"},
		{"TIME", "'10:00:00'", "'10:00:00'"},
		{"YEAR", "2020", "2020"},
		{"INT", "'abc'", "'abc'"},
		{"INT", "'1e999999999'", "'1e999999999'"},
		{"TIMESTAMP", "LOCALTIMESTAMP", "CURRENT_TIMESTAMP"},
		{"VARCHAR(36)", "(uuid())", "UUID()"},
	}
	for _, tt := range tests {
		tb := replayDDLTable(t, "CREATE TABLE t (c "+tt.col+" DEFAULT "+tt.def+")", "t")
		got := tb.Columns[0].Default
		if got == nil || *got != tt.want {
			t.Errorf("%s DEFAULT %s: got %v, want %q", tt.col, tt.def, got, tt.want)
		}
	}
}
