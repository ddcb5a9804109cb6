package driver_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestCorpus lints a varied corpus written in the styles real projects use
// (.sql, Go, Java, MyBatis XML; multi-line strings, comments inside SQL,
// backticks, schema-qualified names, JOIN updates, upserts, MariaDB syntax,
// broken files). Nothing may crash, every statement is either checked or a
// positioned GQ009, and the findings match the golden list.
func TestCorpus(t *testing.T) {
	res, err := driver.Run(driver.Config{Paths: []string{"testdata/corpus"}, Policy: policy.Default(), Rules: rules.All(), Learn: rules.Learn})
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Statements < 40 {
		t.Errorf("corpus has %d statements, want at least 40", res.Summary.Statements)
	}
	var lines []string
	for _, f := range res.Findings {
		if f.File == "" || f.Line < 1 || f.Column < 1 || f.EndLine < f.Line {
			t.Errorf("finding without a proper position: %+v", f)
		}
		lines = append(lines, fmt.Sprintf("%s:%d:%d %s %s", f.File, f.Line, f.Column, f.Code, f.Message))
	}
	got := strings.Join(lines, "\n") + "\n"
	const path = "testdata/corpus.golden"
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./lint -update)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("corpus findings differ (-want +got):\n%s", d)
	}
}

// TestEveryStatementAccountedFor checks, statement by statement, that guard
// either parsed a statement or reported why not at its position.
func TestEveryStatementAccountedFor(t *testing.T) {
	// Query rules run file by file on several goroutines. The spy copies
	// the statements a part at a time, as they are parsed: once a part is
	// judged its row loads keep their place and text, not their trees
	// (releaseRowLoads).
	var mu sync.Mutex
	var stmts []lint.Statement
	spy := &lint.Rule{Code: "GX000", Name: "spy", Kind: lint.KindQuery, Severity: policy.SevInfo, PerStatement: true,
		Run: func(p *lint.Pass) error {
			mu.Lock()
			defer mu.Unlock()
			for _, st := range p.Statements {
				stmts = append(stmts, *st)
			}
			return nil
		}}
	res, err := driver.Run(driver.Config{Paths: []string{"testdata/corpus"}, Policy: policy.Default(), Rules: append(rules.All(), spy), Learn: rules.Learn})
	if err != nil {
		t.Fatal(err)
	}
	reported := map[string]bool{}
	for _, f := range res.Findings {
		if f.Code == "GQ009" || f.Code == "GQ010" { // GQ010: a ${…} the statement cannot be checked around
			reported[fmt.Sprintf("%s:%d", f.File, f.Line)] = true
		}
	}
	for _, st := range stmts {
		if st.Node != nil {
			continue
		}
		line, _ := st.ErrPos()
		if !reported[fmt.Sprintf("%s:%d", st.File, line)] && !reported[fmt.Sprintf("%s:%d", st.File, st.Line)] {
			t.Errorf("%s:%d: statement neither checked nor reported: %q", st.File, st.Line, st.SQL)
		}
	}
}
