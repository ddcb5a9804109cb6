// Package validation tells which values of Java code are checked before
// use, so that a value pasted into SQL text (a MyBatis ${…}) is not taken
// for an injection when only a fixed list of strings can reach it: a Bean
// Validation constraint on the parameter or on the field its getter reads
// (@Pattern whose regexp admits no quote, bracket or operator, or a
// custom @Constraint whose validator tests membership in a fixed list),
// and the whitelist checks a method makes itself before the use
// (`if (!ALLOWED.contains(x)) throw …`, a switch whose default throws, a
// lookup in a constant map). It reads the file through the Java reader's
// token view (java.Tokens) while the file is extracted; what rests on
// another file's declarations (a constraint type, a DTO's fields) is
// answered once every file is read (Index).
package validation

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
)

// Name is the name the package registers with the Java reader, and the
// key of its declarations in java.File.Frameworks.
const Name = "Bean Validation"

func init() {
	java.Register(java.Framework{Name: Name, Declarations: func(s java.Syntax) any {
		if d := declarations(s); d != nil {
			return d
		}
		return nil
	}})
}

// Need is a check a value rests on that another file may declare.
type Need struct {
	// What is the value as written: a parameter's name, a getter call.
	What string
	// Constraints are the simple names of the annotations of the
	// parameter or field the value is: it is checked when one of them is
	// a whitelisting constraint (Index.Holds).
	Constraints []string
	// Type and Field name a property read through its getter
	// (`query.getSort()`): it is checked when the field of that name of
	// the class Type carries one.
	Type, Field string
}

// Check is what a file shows of whether a value is checked before use.
type Check struct {
	// Unchecked lists, as written, the parts of the value that no check
	// vouches for ("sort"); empty when every part is a constant or
	// checked.
	Unchecked []string
	// Needs are the checks declared elsewhere that the other parts rest
	// on: the value is checked when every one holds.
	Needs []Need
}

// Local reports whether the file alone shows the value checked.
func (c Check) Local() bool { return len(c.Unchecked) == 0 && len(c.Needs) == 0 }

// and is the check of a value built from the values c and d.
func (c Check) and(d Check) Check {
	return Check{Unchecked: append(c.Unchecked[:len(c.Unchecked):len(c.Unchecked)], d.Unchecked...),
		Needs: append(c.Needs[:len(c.Needs):len(c.Needs)], d.Needs...)}
}

// unchecked is the check of a value no check vouches for, as written.
func unchecked(what string) Check { return Check{Unchecked: []string{what}} }

// code is a file's tokens with the questions this package asks of them.
type code struct {
	s java.Syntax
	t java.Tokens
	// collections caches, by name, whether a name of the file holds a
	// collection of constants (see collection).
	collections map[string]bool
}

func newCode(s java.Syntax) *code { return &code{s: s, t: s.Tokens(), collections: map[string]bool{}} }

func (c *code) is(i int, text string) bool { return c.t.Is(i, text) }

func (c *code) ident(i int) bool { return c.t.At(i).Kind == java.TokIdent }

func (c *code) text(i int) string { return c.t.At(i).Text }

// source returns the text of tokens [s, e), spaced as Java needs.
func (c *code) source(s, e int) string {
	var b strings.Builder
	for i := s; i < e; i++ {
		if i > s && c.ident(i) && c.ident(i-1) {
			b.WriteByte(' ')
		}
		b.WriteString(c.text(i))
	}
	return b.String()
}

// same reports whether tokens [a, a+n) and [b, b+n) read alike.
func (c *code) same(a, b, n int) bool {
	for k := 0; k < n; k++ {
		x, y := c.t.At(a+k), c.t.At(b+k)
		if x.Kind != y.Kind || x.Text != y.Text {
			return false
		}
	}
	return true
}

// trim drops the parentheses around all of [s, e).
func (c *code) trim(s, e int) (int, int) {
	for e-s >= 2 && c.is(s, "(") && c.t.Match(s) == e-1 {
		s, e = s+1, e-1
	}
	return s, e
}

// split cuts [s, e) at the operator sep outside brackets.
func (c *code) split(s, e int, sep string) [][2]int {
	var out [][2]int
	from := s
	for k := s; k < e; k++ {
		switch {
		case c.is(k, "(") || c.is(k, "[") || c.is(k, "{"):
			if m := c.t.Match(k); m > k && m < e {
				k = m
			}
		case c.is(k, sep):
			out = append(out, [2]int{from, k})
			from = k + 1
		}
	}
	return append(out, [2]int{from, e})
}

// upper reports whether name starts with an upper-case letter: a type or
// a constant by the conventions of Java.
func upper(name string) bool { return name != "" && name[0] >= 'A' && name[0] <= 'Z' }

// constantToken reports whether token j keeps an expression constant: a
// literal, an operator that combines constants, a name reached from a class
// (BY_SORT, Order.Column.addTime.desc(), Set.of): a lower-case name no dot
// qualifies is a variable or a parameter, whose value a caller decides.
func (c *code) constantToken(j int) bool {
	tok := c.t.At(j)
	switch tok.Kind {
	case java.TokString, java.TokChar, java.TokNumber:
		return true
	case java.TokOp:
		switch tok.Text {
		case "+", "(", ")", ".", ",", "{", "}", "[", "]", "<", ">", "::", "?", ":":
			return true
		}
		return false
	case java.TokIdent:
		switch tok.Text {
		case "new", "true", "false", "null":
			return true
		case "this", "super":
			return false
		}
		if upper(tok.Text) {
			return true
		}
		return c.is(j-1, ".") && !c.is(j-2, "this")
	}
	return false
}

// constant reports whether every token of [s, e) is constant.
func (c *code) constant(s, e int) bool {
	if s >= e {
		return false
	}
	for j := s; j < e; j++ {
		if !c.constantToken(j) {
			return false
		}
	}
	return true
}

// statementEnd returns the ';' that ends the statement or declaration
// starting at s, skipping brackets; e when none stands before e.
func (c *code) statementEnd(s, e int) int {
	for k := s; k < e; k++ {
		switch {
		case c.is(k, "(") || c.is(k, "[") || c.is(k, "{"):
			if m := c.t.Match(k); m > k {
				k = m
			}
		case c.is(k, ";"):
			return k
		}
	}
	return e
}

// encloses reports whether the block opened at '{' b holds token i.
func (c *code) encloses(b, i int) bool {
	return b >= 0 && b < i && c.t.Match(b) > i
}
