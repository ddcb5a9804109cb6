package report

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

const target = "db.example.com:3306/shop"

// sampleResult covers every shape a finding takes: the three severities, file
// findings with and without a column, live findings with and without a table,
// multi-line and over-long SQL, and messages full of characters the formats
// must escape.
func sampleResult() *lint.Result {
	return &lint.Result{
		Findings: []lint.Finding{
			{
				Code: "GS003", Rule: "counter-without-check", Severity: policy.SevError,
				File: "migrations/001_init.up.sql", Line: 3, Column: 1, EndLine: 9,
				Table: "t_inventory", ColumnName: "inventory",
				Message: "counter column t_inventory.inventory has no CHECK (inventory >= 0)",
				Fix:     "ALTER TABLE t_inventory ADD CONSTRAINT chk_inventory_nonneg CHECK (inventory >= 0), ALGORITHM=COPY",
			},
			{
				Code: "GQ002", Rule: "unguarded-decrement", Severity: policy.SevError,
				File: "internal/dao/stock.go", Line: 12, Column: 9, EndLine: 14,
				Table: "t_inventory", ColumnName: "inventory",
				Message: "inventory = inventory - ? has no guard, so 100% of a burst can oversell: a, b: c\nsecond line — ünïcødé 库存 <ok> & \"quoted\"",
				Fix:     "add AND inventory >= ? to the WHERE clause\nand check RowsAffected == 1",
				SQL:     "UPDATE t_inventory\n\tSET inventory = inventory - ?\n\tWHERE id = ?",
			},
			{
				Code: "GQ007", Rule: "select-for-update", Severity: policy.SevWarning,
				File: "src/main/resources/mapper/OrderMapper.xml", Line: 20, Column: 5, EndLine: 22,
				Table:   "t_order",
				Message: "SELECT … FOR UPDATE locks one instance only",
				Fix:     "use a conditional UPDATE checked by RowsAffected",
				SQL:     "SELECT * FROM t_order WHERE order_no = #{orderNo} FOR UPDATE",
			},
			{
				Code: "GQ001", Rule: "write-without-where", Severity: policy.SevWarning,
				File: "sql/legacy queries/a,b:c%.sql", Line: 4, Column: 0, EndLine: 4,
				Table:   "t_stock",
				Message: "UPDATE without WHERE touches every row\r\nof t_stock",
				Fix:     "add a WHERE clause",
				SQL: "UPDATE t_stock SET note = 'a\x1b[2Jb', " + strings.Repeat("quantity = quantity + 0, ", 10) +
					"updated_at = NOW() -- end of a very long statement that the text format cuts",
			},
			{
				Code: "GQ009", Rule: "not-checked", Severity: policy.SevInfo,
				File: "internal/dao/dynamic.go", Line: 40, Column: 2, EndLine: 41,
				Message: "statement built at run time: fmt.Sprintf(\"UPDATE %s …\")",
			},
			{
				Code: "GS001", Rule: "strict-sql-mode", Severity: policy.SevWarning,
				Target:  target,
				Message: "global sql_mode lacks STRICT_TRANS_TABLES: \"NO_ENGINE_SUBSTITUTION\"",
				Fix:     "SET PERSIST sql_mode = 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION'",
			},
			{
				Code: "GS010", Rule: "existing-violations", Severity: policy.SevError,
				Target: target, Table: "t_inventory", ColumnName: "inventory",
				Message: "3 rows already negative (id: 7, 9, 12)",
				Fix:     "repair the rows before adding the CHECK",
			},
		},
		Summary: lint.Summary{Error: 3, Warning: 3, Info: 1, Files: 12, Statements: 40, Tables: 5},
	}
}

// sampleRules is a registry excerpt; GQ009 is left out on purpose so sarif
// must describe a rule the registry did not.
func sampleRules() []RuleInfo {
	return []RuleInfo{
		{Code: "GS001", Name: "strict-sql-mode", Summary: "sql_mode lacks STRICT_TRANS_TABLES/STRICT_ALL_TABLES", Doc: "Without strict mode a negative write to an UNSIGNED column clamps to 0.", Fix: "Set STRICT_TRANS_TABLES globally.", Severity: policy.SevError},
		{Code: "GS003", Name: "counter-without-check", Summary: "counter column has no CHECK (col >= 0)", Doc: "A CHECK is the last line when a lock is lost.", Fix: "ADD CONSTRAINT … CHECK (col >= 0).", Severity: policy.SevError},
		{Code: "GS010", Name: "existing-violations", Summary: "rows already negative, or duplicate business keys", Doc: "Existing bad rows make ADD CHECK and ADD UNIQUE fail.", Fix: "Repair the rows first.", Severity: policy.SevError},
		{Code: "GQ001", Name: "write-without-where", Summary: "UPDATE/DELETE with no WHERE", Doc: "A write without WHERE touches every row.", Fix: "Add a WHERE clause.", Severity: policy.SevError},
		{Code: "GQ002", Name: "unguarded-decrement", Summary: "c = c - x without c >= x in WHERE", Doc: "Two writers that both passed a lock can both decrement.", Fix: "Add AND c >= ? and check RowsAffected.", Severity: policy.SevError},
		{Code: "GQ007", Name: "select-for-update", Summary: "SELECT … FOR UPDATE used as a lock", Doc: "Row locks are local to one instance.", Fix: "Use a conditional UPDATE.", Severity: policy.SevWarning},
		{Code: "GQ011", Name: "rows-affected-ignored", Summary: "RowsAffected never compared", Doc: "A guarded UPDATE that matched nothing looks like success.", Severity: policy.SevOff},
	}
}

func sampleOptions() Options {
	return Options{Version: "1.2.3", Rules: sampleRules()}
}

func TestGolden(t *testing.T) {
	empty := &lint.Result{Summary: lint.Summary{Files: 1, Statements: 1, Tables: 1}}
	tests := []struct {
		name   string
		format string
		res    *lint.Result
		color  bool
	}{
		{"sample.text", FormatText, sampleResult(), false},
		{"sample.color.text", FormatText, sampleResult(), true},
		{"sample.json", FormatJSON, sampleResult(), false},
		{"sample.sarif", FormatSARIF, sampleResult(), false},
		{"sample.github", FormatGitHub, sampleResult(), false},
		{"empty.text", FormatText, empty, false},
		{"empty.json", FormatJSON, empty, false},
		{"empty.sarif", FormatSARIF, empty, false},
		{"empty.github", FormatGitHub, empty, false},
		{"sample.gitlab", FormatGitLab, sampleResult(), false},
		{"empty.gitlab", FormatGitLab, empty, false},
		{"sample.markdown", FormatMarkdown, sampleResult(), false},
		{"empty.markdown", FormatMarkdown, empty, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := sampleOptions()
			opts.Color = tt.color
			var buf bytes.Buffer
			if err := Write(&buf, tt.format, tt.res, opts); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/report -update)", err)
			}
			if diff := cmp.Diff(string(want), buf.String()); diff != "" {
				t.Errorf("%s mismatch (-golden +got):\n%s", golden, diff)
			}
		})
	}
}

func TestFormats(t *testing.T) {
	want := []string{"text", "json", "sarif", "github", "gitlab", "markdown", "html"}
	if diff := cmp.Diff(want, Formats()); diff != "" {
		t.Errorf("Formats() (-want +got):\n%s", diff)
	}
	for _, f := range Formats() {
		if err := Write(&bytes.Buffer{}, f, sampleResult(), sampleOptions()); err != nil {
			t.Errorf("Write(%q): %v", f, err)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrors(t *testing.T) {
	tests := []struct {
		name    string
		format  string
		res     *lint.Result
		wantErr string
		is      error
	}{
		{name: "unknown format", format: "xml", res: sampleResult(), wantErr: `unknown format "xml" (want text, json, sarif, github, gitlab, markdown, html)`, is: ErrUnknownFormat},
		{name: "format is case sensitive", format: "JSON", res: sampleResult(), wantErr: `unknown format "JSON"`, is: ErrUnknownFormat},
		{name: "nil result", format: FormatText, wantErr: "nil result"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := Write(&buf, tt.format, tt.res, sampleOptions())
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Write() error = %v, want it to contain %q", err, tt.wantErr)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.is)
			}
			if buf.Len() != 0 {
				t.Errorf("Write() wrote %q on error", buf.String())
			}
		})
	}
	t.Run("failing writer", func(t *testing.T) {
		err := Write(failingWriter{}, FormatJSON, sampleResult(), sampleOptions())
		if err == nil || !strings.Contains(err.Error(), "write json report: disk full") {
			t.Errorf("Write() error = %v, want the writer's error wrapped", err)
		}
	})
}
