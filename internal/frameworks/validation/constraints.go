package validation

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
)

// The packages of Bean Validation's own constraints.
var constraintPackages = []string{"javax.validation.constraints", "jakarta.validation.constraints"}

// Param is a parameter of a method: its name, the simple name of its type
// and what its constraints check.
type Param struct {
	Name, Type  string
	Annotations []java.Annotation
	Check       Check
}

// Params returns the parameters of a method (java.Syntax.Params), each
// with the check its constraint annotations make.
func Params(s java.Syntax, ps []java.Param) []Param { return newCode(s).checked(ps) }

// params returns the parameters of the list that closes at token close.
func (c *code) params(close int) []Param { return c.checked(c.s.ParamsAt(close)) }

// checked adds to each parameter the check of its constraints.
func (c *code) checked(ps []java.Param) []Param {
	if len(ps) == 0 {
		return nil
	}
	out := make([]Param, len(ps))
	for i, p := range ps {
		out[i] = Param{Name: p.Name, Type: p.Type, Annotations: p.Annotations, Check: c.constraintCheck(p.Annotations, p.Name)}
	}
	return out
}

// parameter returns the check of parameter name of the method whose body
// opens at body, and whether it has one.
func (c *code) parameter(body int, name string) (Check, bool) {
	for _, p := range c.params(c.headClose(body)) {
		if p.Name == name {
			return p.Check, true
		}
	}
	return Check{}, false
}

// constraintCheck is what the annotations of a parameter or a field named
// name check: a @Pattern whose regexp admits only safe text checks it
// here; any other annotation may be a custom constraint another file
// declares.
func (c *code) constraintCheck(anns []java.Annotation, name string) Check {
	var others []string
	for _, a := range anns {
		if a.Is("Pattern", constraintPackages...) {
			if c.safePatternAnnotation(a) {
				return Check{}
			}
			continue
		}
		others = append(others, simpleName(a.Name))
	}
	if len(others) == 0 {
		return unchecked(name)
	}
	return Check{Needs: []Need{{What: name, Constraints: others}}}
}

// safePatternAnnotation reports whether @Pattern a has a regexp, a
// constant of the file, that admits only safe text.
func (c *code) safePatternAnnotation(a java.Annotation) bool {
	v, ok := c.s.AnnotationValue(a, "regexp")
	return ok && v.Known && SafePattern(v.Text.String())
}

// simpleName returns the last part of a dotted name.
func simpleName(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }

// decls is what a file declares that other files' checks rest on.
type decls struct {
	// constraints are the constraint annotation types it declares, by
	// simple name.
	constraints map[string]*constraint
	// validators tells, by simple name, whether each ConstraintValidator
	// it declares accepts only the members of a fixed list.
	validators map[string]bool
	// fields holds, by class and field, the checks of its classes'
	// constrained fields; supers the classes each class extends.
	fields map[string]map[string]Check
	supers map[string]string
}

// constraint is a constraint annotation type: @Constraint(validatedBy =
// V.class) @interface A, or one composed of a safe @Pattern or of other
// constraints.
type constraint struct {
	validators, composes []string
	safe                 bool
}

// declarations reads what file s declares of Bean Validation; nil for
// nothing.
func declarations(s java.Syntax) *decls {
	c := newCode(s)
	d := &decls{constraints: map[string]*constraint{}, validators: map[string]bool{},
		fields: map[string]map[string]Check{}, supers: map[string]string{}}
	for i := 0; i+1 < c.t.Len(); i++ {
		if c.t.At(i).Kind == java.TokAnnot && c.text(i) == "interface" && c.ident(i+1) {
			if k := c.constraintType(i); k != nil {
				d.constraints[c.text(i+1)] = k
			}
		}
	}
	var walk func(ts []java.TypeDecl)
	walk = func(ts []java.TypeDecl) {
		for _, t := range ts {
			c.readType(d, t)
			walk(t.Inner)
		}
	}
	walk(s.Types())
	if len(d.constraints) == 0 && len(d.validators) == 0 && len(d.fields) == 0 && len(d.supers) == 0 {
		return nil
	}
	return d
}

// constraintType reads the annotation type declared at the @interface
// token i; nil when it is no constraint.
func (c *code) constraintType(i int) *constraint {
	var k *constraint
	var composes []string
	safe := false
	for _, a := range c.t.AnnotationsBefore(i) {
		switch {
		case a.Is("Constraint", "javax.validation", "jakarta.validation"):
			k = &constraint{}
			for _, f := range strings.FieldsFunc(a.Args["validatedBy"], func(r rune) bool { return r == '{' || r == '}' || r == ',' || r == ' ' }) {
				if v, ok := strings.CutSuffix(f, ".class"); ok {
					k.validators = append(k.validators, simpleName(v))
				}
			}
		case a.Is("Pattern", constraintPackages...):
			safe = safe || c.safePatternAnnotation(a)
		default:
			composes = append(composes, simpleName(a.Name))
		}
	}
	if k != nil {
		k.safe, k.composes = safe, composes
	}
	return k
}

// readType reads a class's constrained fields, its superclass, and, for a
// ConstraintValidator, whether it accepts only a fixed list.
func (c *code) readType(d *decls, t java.TypeDecl) {
	if len(t.Extends) > 0 && t.Kind == "class" {
		d.supers[t.Name] = simpleName(t.Extends[0].Name)
	}
	for _, f := range t.Fields {
		if f.Static || len(f.Annotations) == 0 {
			continue
		}
		if ck := c.constraintCheck(f.Annotations, f.Name); len(ck.Unchecked) == 0 {
			if d.fields[t.Name] == nil {
				d.fields[t.Name] = map[string]Check{}
			}
			d.fields[t.Name][f.Name] = ck
		}
	}
	for _, ref := range t.Implements {
		if simpleName(ref.Name) == "ConstraintValidator" {
			d.validators[t.Name] = c.whitelistValidator(t)
		}
	}
}

// whitelistValidator reports whether validator t's isValid accepts only
// null, empty text or the members of a fixed list: every return of it
// returns false, or a membership test of its first parameter, or true
// where a check of it holds.
func (c *code) whitelistValidator(t java.TypeDecl) bool {
	for _, m := range c.s.Members(t) {
		body := c.t.Body(m)
		if m.Name != "isValid" || body < 0 {
			continue
		}
		ps := c.params(c.headClose(body))
		if len(ps) == 0 {
			return false
		}
		return c.acceptsMembers(body, ps[0].Name)
	}
	return false
}

// headClose returns the ')' that ends the parameters of the method whose
// body opens at body, before any throws clause.
func (c *code) headClose(body int) int {
	for j := body - 1; j > 0 && (c.ident(j) || c.is(j, ".") || c.is(j, ",")); j-- {
		if c.is(j, "throws") {
			return j - 1
		}
	}
	return body - 1
}

// acceptsMembers reports whether the method whose body opens at body
// returns true only when its parameter name is null, empty or a member of
// a fixed list.
func (c *code) acceptsMembers(body int, name string) bool {
	var subj subject
	for k := body + 1; k < c.t.Match(body); k++ {
		if c.text(k) == name && c.ident(k) {
			subj = subject{k, 1}
			break
		}
	}
	if subj.n == 0 {
		return false
	}
	accepts := 0
	for k := body + 1; k < c.t.Match(body); k++ {
		if !c.is(k, "return") || c.t.MethodBody(k) != body {
			continue
		}
		end := c.statementEnd(k+1, c.t.Match(body))
		if end == k+2 && c.is(k+1, "false") {
			continue
		}
		accepts++
		if f := c.whenTrue(k+1, end, subj); f == member || f == empty {
			continue
		}
		if !c.branchTells(subj, body, k, true) && !c.guardBefore(subj, body, k) {
			return false
		}
	}
	return accepts > 0
}
