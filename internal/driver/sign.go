package driver

import (
	"fmt"

	"github.com/guard-sql/guard/internal/frameworks/mybatis"
	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// negatedKey names a function's argument by the function's name, the
// argument's position and the function's arity, and the property of the
// argument when it is an object the caller set it in; java tells the
// functions of Java and MyBatis, which Java calls, from Go's.
type negatedKey struct {
	java       bool
	name       string
	arg, arity int
	prop       string
}

// sign joins the placeholders that bind a parameter of their function
// (stmt.ParamSource) with the calls of every file that pass that parameter
// a negated amount, by the function's name and arity, marking the
// placeholders (stmt.Fragment.Negated) and the results whose statements
// must be judged again. A placeholder of a mapper XML, known by the name
// its statement gives the value, is resolved first with the parameters of
// its mapper interface's method, which another file declares.
func (r *run) sign() error {
	calls := r.negatedCalls()
	if len(calls) == 0 {
		return nil
	}
	var mappers *mybatis.ParamIndex // made when a placeholder needs it
	r.signed = map[int]bool{}
	for i := range r.results {
		f := r.results[i].file
		if r.results[i].err != nil || f == nil {
			continue
		}
		for _, fr := range f.Fragments {
			for _, ps := range fr.ParamSources {
				if ps.Arg < 0 {
					if mappers == nil {
						mappers = mybatis.NewParamIndex(r.javaFiles())
					}
					var ok bool
					if ps, ok = mappers.Resolve(fr.Namespace, ps); !ok {
						continue
					}
				}
				k := negatedKey{fr.Lang != stmt.LangGo, ps.Func, ps.Arg, ps.Params, ps.Prop}
				if na, ok := calls[k]; ok && !negatedAlready(fr, ps.Param) {
					fr.Negated = append(fr.Negated, stmt.NegatedParam{Param: ps.Param,
						Call: fmt.Sprintf("%s:%d passes %s", lint.DisplayPath(na.File), na.Line, na.Text)})
					r.signed[i] = true
				}
			}
		}
	}
	return nil
}

// negatedCalls returns the first call of the run passing each argument
// negated.
func (r *run) negatedCalls() map[negatedKey]stmt.NegatedArg {
	calls := map[negatedKey]stmt.NegatedArg{}
	for i := range r.results {
		if f := r.results[i].file; f != nil {
			for _, na := range f.NegatedArgs {
				if k := (negatedKey{f.Lang == stmt.LangJava, na.Func, na.Arg, na.Args, na.Prop}); calls[k].Func == "" {
					calls[k] = na
				}
			}
		}
	}
	return calls
}

// javaFiles returns the Java facts of each result, nil for a result that
// is not a .java file: its i-th entry is results[i]'s.
func (r *run) javaFiles() []*java.File {
	out := make([]*java.File, len(r.results))
	for i := range r.results {
		out[i] = r.results[i].java
	}
	return out
}

// negatedAlready reports whether placeholder k of fr is marked negated.
func negatedAlready(fr *stmt.Fragment, k int) bool {
	for _, n := range fr.Negated {
		if n.Param == k {
			return true
		}
	}
	return false
}
