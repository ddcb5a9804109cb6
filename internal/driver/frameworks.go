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

// indexFrameworks hands every source of the run to the linkers whose
// extensions it has; the texts stay kept for the extraction.
func (r *run) indexFrameworks() {
	forEach(len(r.in.sources), noState, func(_ struct{}, i int) {
		p := r.in.sources[i]
		ext := strings.ToLower(filepath.Ext(p))
		var src []byte
		for _, lk := range r.linkers {
			if !slices.Contains(lk.exts, ext) {
				continue
			}
			if src == nil {
				var err error
				if src, err = r.tx.keep(p); err != nil {
					return // reported when the file is extracted
				}
			}
			lk.Index(lint.DisplayPath(p), src)
		}
	})
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
