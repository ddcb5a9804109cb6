package mybatis

import (
	"slices"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

// The parameters of mapper methods, by which a statement names the values
// it binds: `#{delta}` of the statement addStock is the parameter
// @Param("delta") of the mapper interface's method addStock (or the one
// named delta: MyBatis's useActualParamName), #{param2} its second, and,
// for a method taking one parameter object, #{delta} is that object's
// property. A statement whose SQL adds such a value (`stock = stock +
// #{delta}`) decrements when a caller passes it negated
// (stmt.ParamSource, stmt.NegatedArg).

// Method is a method of a mapper interface.
type Method struct {
	// Mapper is the interface, qualified; Name the method's.
	Mapper, Name string
	Params       []Param
}

// Param is a parameter of a mapper method.
type Param struct {
	// Name is what a statement calls it: the value of its @Param, else
	// its own name.
	Name string
	// Named reports a @Param; Scalar a type MyBatis binds whole (int,
	// Long, String, BigDecimal…) rather than by its properties.
	Named, Scalar bool
}

// scalarTypes are the types of the values MyBatis binds whole.
var scalarTypes = map[string]bool{
	"int": true, "long": true, "short": true, "byte": true, "double": true, "float": true, "boolean": true, "char": true,
	"Integer": true, "Long": true, "Short": true, "Byte": true, "Double": true, "Float": true, "Boolean": true,
	"Character": true, "String": true, "BigDecimal": true, "BigInteger": true, "Number": true,
}

// methods reads the mapper methods a file declares.
func methods(s java.Syntax) []Method {
	var out []Method
	var walk func(ts []java.TypeDecl)
	walk = func(ts []java.TypeDecl) {
		for _, t := range ts {
			walk(t.Inner)
			if t.Kind != "interface" {
				continue
			}
			for _, m := range s.Members(t) {
				if !m.Method || m.HasBody() || m.NoParams {
					continue
				}
				if ps := s.Params(m); len(ps) > 0 {
					out = append(out, Method{Mapper: t.Qualified, Name: m.Name, Params: params(ps)})
				}
			}
		}
	}
	walk(s.Types())
	return out
}

// params reads the parameters of a mapper method.
func params(ps []java.Param) []Param {
	out := make([]Param, len(ps))
	for i, p := range ps {
		out[i] = Param{Name: p.Name, Scalar: scalarTypes[p.Type]}
		for _, a := range p.Annotations {
			if v, ok := a.Args["value"]; ok && a.Is("Param", annotationsPackage) {
				out[i].Name, out[i].Named = v, true
			}
		}
	}
	return out
}

// Bind completes ps, a placeholder of a statement of m known by the name
// the statement gives its value, with the argument of m it binds and the
// property of that argument; false when the name binds none.
func (m *Method) Bind(ps stmt.ParamSource) (stmt.ParamSource, bool) {
	root, rest, _ := strings.Cut(ps.Name, ".")
	arg, prop, ok := -1, "", false
	if len(m.Params) == 1 && !m.Params[0].Named {
		// One parameter is the statement's parameter object itself.
		arg, prop, ok = 0, ps.Name, true
		if m.Params[0].Scalar {
			prop, ok = "", rest == ""
		}
	} else {
		for j, p := range m.Params {
			if root == p.Name || root == "param"+strconv.Itoa(j+1) || !p.Named && root == "arg"+strconv.Itoa(j) {
				arg, prop, ok = j, rest, !p.Scalar || rest == ""
				break
			}
		}
	}
	if !ok {
		return ps, false
	}
	ps.Func, ps.Arg, ps.Params, ps.Prop = m.Name, arg, len(m.Params), prop
	return ps, true
}

// ParamIndex holds the mapper methods of every Java file of a run, for the
// values a mapper XML's #{…} binds.
type ParamIndex struct {
	// byName maps interface#method to the method; nil for a name the
	// interface declares more than once, with other parameters.
	byName map[string]*Method
}

// NewParamIndex indexes the mapper methods of files.
func NewParamIndex(files []*java.File) *ParamIndex {
	ix := &ParamIndex{byName: map[string]*Method{}}
	for _, f := range files {
		if d := Of(f); d != nil {
			for i := range d.Methods {
				m := &d.Methods[i]
				key := m.Mapper + "#" + m.Name
				if o, seen := ix.byName[key]; seen && (o == nil || !slices.Equal(o.Params, m.Params)) {
					m = nil // overloaded: which one a statement is cannot be told
				}
				ix.byName[key] = m
			}
		}
	}
	return ix
}

// Resolve completes ps, a placeholder of a statement of the mapper XML of
// namespace known by name, with the parameters of the interface's method.
func (ix *ParamIndex) Resolve(namespace string, ps stmt.ParamSource) (stmt.ParamSource, bool) {
	m := ix.byName[namespace+"#"+ps.Func]
	if m == nil {
		return ps, false
	}
	return m.Bind(ps)
}

// byMethod returns the methods of ms by name, nil for a name declared more
// than once.
func byMethod(ms []Method) map[string]*Method {
	out := map[string]*Method{}
	for i := range ms {
		if _, seen := out[ms[i].Name]; seen {
			out[ms[i].Name] = nil
		} else {
			out[ms[i].Name] = &ms[i]
		}
	}
	return out
}
