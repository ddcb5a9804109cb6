package mybatis

import (
	"github.com/guard-sql/guard/internal/frameworks/validation"
	"github.com/guard-sql/guard/internal/hostcode/java"
)

// Facts is what the MyBatis reader finds in a Java file of the values that
// reach a ${…} of a statement: the Example clause setters, the mapper
// interfaces with their methods' parameters, and the calls that may pass a
// mapper method its arguments.
type Facts struct {
	ClauseSets []ClauseSet
	Mappers    []Mapper
	Calls      []Call
	// Supers holds, by simple name, every type the file declares, with
	// the simple names of the types it extends and implements: which
	// Example classes a setter on a base class reaches.
	Supers map[string][]string
	// Methods are the methods without a body, taking parameters, of the
	// interfaces the file declares: what a mapper XML's #{…} binds.
	Methods []Method
}

// Of returns the facts the MyBatis reader found in f; nil for none.
func Of(f *java.File) *Facts {
	if f == nil {
		return nil
	}
	facts, _ := f.Frameworks[frameworkName].(*Facts)
	return facts
}

// Mapper is an interface a file declares, a mapper when a statement names
// it: its qualified name (a mapper XML's namespace), its simple name, and
// the parameters of each method, by name (the first of an overload).
type Mapper struct {
	Name, Simple string
	File         string
	Methods      map[string][]validation.Param
}

// Call is a call, on a field of the class (an injected mapper), of a
// method with arguments not all literals: the field's declared type (its
// simple name), the method and what the file shows of each argument.
type Call struct {
	Type, Method string
	Args         []Arg
}

// Arg is what a file shows of an argument: a part no check vouches for,
// or the checks other files declare that it rests on.
type Arg struct {
	Unchecked bool
	Needs     []validation.Need
}

// facts reads the facts of file s; nil for none.
func facts(s java.Syntax) *Facts {
	vals := validation.NewValues(s)
	f := &Facts{ClauseSets: clauseSets(s, vals), Mappers: mappers(s), Calls: fieldCalls(s, vals), Supers: supers(s)}
	if len(f.ClauseSets) == 0 && len(f.Mappers) == 0 && len(f.Calls) == 0 && len(f.Supers) == 0 {
		return nil
	}
	return f
}

// supers reads the types each class of a file extends and implements.
func supers(s java.Syntax) map[string][]string {
	var out map[string][]string
	var walk func(ts []java.TypeDecl)
	walk = func(ts []java.TypeDecl) {
		for _, td := range ts {
			if out == nil {
				out = map[string][]string{}
			}
			if _, seen := out[td.Name]; !seen {
				out[td.Name] = nil // declared, if it extends nothing
			}
			for _, ref := range append(td.Extends[:len(td.Extends):len(td.Extends)], td.Implements...) {
				out[td.Name] = append(out[td.Name], simpleName(ref.Name))
			}
			walk(td.Inner)
		}
	}
	walk(s.Types())
	return out
}

// mappers reads the interfaces of a file and their methods' parameters,
// each with the check its constraints make.
func mappers(s java.Syntax) []Mapper {
	var out []Mapper
	var walk func(ts []java.TypeDecl)
	walk = func(ts []java.TypeDecl) {
		for _, t := range ts {
			walk(t.Inner)
			if t.Kind != "interface" {
				continue
			}
			m := Mapper{Name: t.Qualified, Simple: t.Name, File: s.Path(), Methods: map[string][]validation.Param{}}
			for _, mb := range s.Members(t) {
				if _, seen := m.Methods[mb.Name]; mb.Method && !mb.HasBody() && !seen {
					m.Methods[mb.Name] = validation.Params(s, s.Params(mb))
				}
			}
			out = append(out, m)
		}
	}
	walk(s.Types())
	return out
}

// fieldCalls reads the calls `field.m(…)` (and `this.field.m(…)`) of the
// file's methods on a field that is not static, with an argument that is
// not a literal: where a mapper method is passed what its ${…} pastes.
func fieldCalls(s java.Syntax, vals *validation.Values) []Call {
	fields := map[string]string{}
	var walk func(ts []java.TypeDecl)
	walk = func(ts []java.TypeDecl) {
		for _, td := range ts {
			for _, f := range td.Fields {
				if _, seen := fields[f.Name]; !seen && !f.Static && f.Type != "" {
					fields[f.Name] = f.Type
				}
			}
			walk(td.Inner)
		}
	}
	walk(s.Types())
	if len(fields) == 0 {
		return nil
	}
	t := s.Tokens()
	var out []Call
	for i := 2; i+1 < t.Len(); i++ {
		if t.At(i).Kind != java.TokIdent || !t.Is(i-1, ".") || !t.Is(i+1, "(") || t.At(i-2).Kind != java.TokIdent {
			continue
		}
		typ, ok := fields[t.At(i-2).Text]
		if !ok || t.Is(i-3, ".") && !t.Is(i-4, "this") || t.MethodBody(i) < 0 {
			continue
		}
		close := t.Match(i + 1)
		if close <= i+2 || !variableArgs(t, i+2, close) {
			continue
		}
		c := Call{Type: typ, Method: t.At(i).Text}
		for _, a := range splitArgs(t, i+2, close) {
			v := vals.Of(a[0], a[1])
			c.Args = append(c.Args, Arg{Unchecked: len(v.Unchecked) > 0, Needs: v.Needs})
		}
		out = append(out, c)
	}
	return out
}

// variableArgs reports whether tokens [s, e) name something: a variable, a
// parameter or a call.
func variableArgs(t java.Tokens, s, e int) bool {
	for k := s; k < e; k++ {
		if tok := t.At(k); tok.Kind == java.TokIdent && tok.Text != "null" && tok.Text != "true" && tok.Text != "false" {
			return true
		}
	}
	return false
}

// splitArgs cuts the arguments [s, e) of a call at its commas.
func splitArgs(t java.Tokens, s, e int) [][2]int {
	var out [][2]int
	from := s
	for k := s; k < e; k++ {
		switch {
		case t.Is(k, "(") || t.Is(k, "[") || t.Is(k, "{"):
			k = t.Match(k)
		case t.Is(k, ","):
			out = append(out, [2]int{from, k})
			from = k + 1
		}
	}
	return append(out, [2]int{from, e})
}
