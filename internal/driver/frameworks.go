package driver

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/frameworks"
	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"

	// The framework packages, one line each: a package registers itself
	// in its init (see internal/frameworks).
	_ "github.com/guard-sql/guard/internal/frameworks/mybatis"
	_ "github.com/guard-sql/guard/internal/frameworks/redislock"
	_ "github.com/guard-sql/guard/internal/frameworks/tkmybatis"
)

// linker is one registered framework's linker for a run.
type linker struct {
	exts []string
	frameworks.Linker
}

// newLinkers makes the linkers of every registered framework.
func newLinkers() []linker {
	var out []linker
	for _, f := range frameworks.All() {
		out = append(out, linker{exts: f.Exts, Linker: f.New()})
	}
	return out
}

// indexFrameworks hands the text of source p, named name in findings, to
// the linkers whose extensions it has.
func (r *run) indexFrameworks(p, name string, src []byte) {
	ext := strings.ToLower(filepath.Ext(p))
	for _, lk := range r.linkers {
		if slices.Contains(lk.exts, ext) {
			lk.Index(name, src)
		}
	}
}

// frameworkStatements parses the statements the frameworks render, for the
// index of the statements entity writes end in.
func (r *run) frameworkStatements() []*lint.Statement {
	var out []*lint.Statement
	p := sqlparse.NewParser()
	for _, lk := range r.linkers {
		frs := lk.Statements()
		if len(frs) == 0 {
			continue
		}
		out = append(out, parseFile(p, &hostcode.File{Path: frs[0].File, Lang: frs[0].Lang, Fragments: frs}, nil)...)
	}
	return out
}

// resolveCalls lets the frameworks complete the entity writes they turn
// into SQL.
func (r *run) resolveCalls(calls []stmt.MapperCall) {
	for i := range calls {
		for _, lk := range r.linkers {
			if lk.Resolve(&calls[i]) {
				break
			}
		}
	}
}
