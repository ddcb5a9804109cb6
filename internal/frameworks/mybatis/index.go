package mybatis

import (
	"strings"

	"github.com/guard-sql/guard/internal/frameworks/validation"
	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

// Index answers, once every Java file of a run is read, what reaches the
// ${…} of a MyBatis statement: which Example clause setters may set the
// clause to a value no check vouches for, and whether the values a mapper
// method is given for a substitution are checked.
type Index struct {
	checks *validation.Index
	open   []ClauseSet
	// supers are the types each class of the run extends and implements;
	// bases the types of the run that some class does.
	supers   map[string][]string
	bases    map[string]bool
	byName   map[string][]*Mapper
	bySimple map[string][]*Mapper
	byFile   map[string][]*Mapper
	calls    map[callKey][]Call
}

type callKey struct{ typ, method string }

// NewIndex indexes the facts of files (nil entries skipped).
func NewIndex(files []*java.File) *Index {
	ix := &Index{checks: validation.NewIndex(files), supers: map[string][]string{}, bases: map[string]bool{},
		byName: map[string][]*Mapper{}, bySimple: map[string][]*Mapper{}, byFile: map[string][]*Mapper{}, calls: map[callKey][]Call{}}
	for _, f := range files {
		facts := Of(f)
		if facts == nil {
			continue
		}
		for class, ts := range facts.Supers {
			ix.supers[class] = append(ix.supers[class], ts...)
		}
		for _, cs := range facts.ClauseSets {
			if !ix.checks.Checked(cs.Value) {
				ix.open = append(ix.open, cs)
			}
		}
		for i := range facts.Mappers {
			m := &facts.Mappers[i]
			ix.byName[m.Name] = append(ix.byName[m.Name], m)
			ix.bySimple[m.Simple] = append(ix.bySimple[m.Simple], m)
			ix.byFile[m.File] = append(ix.byFile[m.File], m)
		}
		for _, c := range facts.Calls {
			k := callKey{simpleName(c.Type), c.Method}
			ix.calls[k] = append(ix.calls[k], c)
		}
	}
	for _, ts := range ix.supers {
		for _, t := range ts {
			if _, declared := ix.supers[t]; declared {
				ix.bases[t] = true
			}
		}
	}
	return ix
}

// Setters returns the clause setters of the run that may set property of
// the Example statement fr takes to a value no check vouches for: those on
// its Example class, and those on an Example guard cannot name (see
// reaches).
func (ix *Index) Setters(fr *stmt.Fragment, property string) []ClauseSet {
	example := simpleName(fr.ParameterType)
	var out []ClauseSet
	for _, cs := range ix.open {
		if cs.Property == property && (example == "" || ix.reaches(cs.Example, example)) {
			out = append(out, cs)
		}
	}
	return out
}

// mapTypes are the parameterTypes that pass a statement a map (MyBatis
// aliases and classes): the Example in it is none guard can name.
var mapTypes = map[string]bool{"map": true, "hashmap": true, "Map": true, "HashMap": true, "LinkedHashMap": true}

// reaches reports whether a setter called on a receiver declared as typ
// may set the clause of an object of class example: typ is unknown or
// Object, example itself, or a type example extends or implements — when
// the run does not declare example, a type the run declares that some
// class extends or implements (a helper's BaseExample may be its base),
// unless example is a map.
func (ix *Index) reaches(typ, example string) bool {
	if typ == "" || typ == "Object" || typ == example {
		return true
	}
	if _, declared := ix.supers[example]; !declared {
		return ix.bases[typ] && !mapTypes[example]
	}
	seen := map[string]bool{}
	next := []string{example}
	for len(next) > 0 {
		c := next[len(next)-1]
		next = next[:len(next)-1]
		for _, s := range ix.supers[c] {
			if s == typ {
				return true
			}
			if !seen[s] {
				seen[s] = true
				next = append(next, s)
			}
		}
	}
	return false
}

// Unchecked returns, as written, what the argument of cs passes that no
// check vouches for.
func (ix *Index) Unchecked(cs ClauseSet) []string { return ix.checks.Unchecked(cs.Value) }

// Checked reports whether what reaches substitution d of statement fr is
// checked before use: the parameter of its mapper method that ${…} names
// carries a constraint that holds, or is an object whose field ${p.x}
// names does, or every call of the method that the run shows passes a
// checked value there.
func (ix *Index) Checked(fr *stmt.Fragment, d stmt.Dollar) bool {
	root, prop, _ := strings.Cut(strings.TrimSpace(d.Expr), ".")
	for _, m := range ix.mappersOf(fr) {
		if ps, ok := m.Methods[fr.ID]; ok {
			return ix.paramChecked(m, fr.ID, ps, root, prop)
		}
	}
	return false
}

// mappersOf returns the interfaces that may declare the method of fr: the
// one its namespace names, or those of the file of an annotation.
func (ix *Index) mappersOf(fr *stmt.Fragment) []*Mapper {
	if fr.Lang == stmt.LangJava {
		return ix.byFile[fr.File]
	}
	if fr.Namespace == "" {
		return nil
	}
	if ms := ix.byName[fr.Namespace]; len(ms) > 0 {
		return ms
	}
	if ms := ix.bySimple[simpleName(fr.Namespace)]; len(ms) == 1 {
		return ms
	}
	return nil
}

// paramChecked is Checked for method of mapper m, whose parameters are ps,
// and the substitution ${root.prop}.
func (ix *Index) paramChecked(m *Mapper, method string, ps []validation.Param, root, prop string) bool {
	at := -1
	for i, p := range ps {
		if paramName(p) == root {
			at = i
		}
	}
	if at < 0 {
		// The one parameter without @Param: ${sort} reads its property
		// sort, or is the parameter itself when it is a string.
		if len(ps) != 1 || paramName(ps[0]) != ps[0].Name {
			return false
		}
		if ps[0].Type != "String" {
			return ix.checks.Holds(validation.Need{Type: ps[0].Type, Field: root})
		}
		at, prop = 0, ""
	}
	p := ps[at]
	if prop != "" {
		field, _, _ := strings.Cut(prop, ".")
		return ix.checks.Holds(validation.Need{Type: p.Type, Field: field})
	}
	if ix.checks.Checked(p.Check) {
		return true
	}
	calls := ix.calls[callKey{m.Simple, method}]
	for _, c := range calls {
		if len(c.Args) != len(ps) || c.Args[at].Unchecked || !ix.checks.Checked(validation.Check{Needs: c.Args[at].Needs}) {
			return false
		}
	}
	return len(calls) > 0
}

// paramName returns the name a statement knows parameter p by: its
// @Param's, else its own.
func paramName(p validation.Param) string {
	for _, a := range p.Annotations {
		if a.Is("Param", "org.apache.ibatis.annotations") {
			if v := a.Args["value"]; v != "" {
				return v
			}
		}
	}
	return p.Name
}

// simpleName returns the last part of a dotted name.
func simpleName(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }
