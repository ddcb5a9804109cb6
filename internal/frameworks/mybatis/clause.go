package mybatis

import (
	"strings"

	"github.com/guard-sql/guard/internal/frameworks/validation"
	"github.com/guard-sql/guard/internal/hostcode/java"
)

// ClauseSet is a Java call that hands a MyBatis Generator Example a clause
// string its mapper pastes with ${…}: `example.setOrderByClause("sort
// desc")`. guard lint gathers them from every Java file so that GQ010 can
// tell an orderByClause only constants and checked values reach from one a
// caller builds from what it is given.
type ClauseSet struct {
	// Property is the Example property set, e.g. "orderByClause".
	Property string
	// Example is the simple name of the receiver's declared type when the
	// file declares it (PmsBrandExample); empty when unknown: a helper
	// that takes a base class or Object sets the clause of any Example.
	Example string
	// Call is the call as written, its argument shortened.
	Call string
	// Value is what the file shows of the argument: built from constants
	// and values checked before the call, or resting on checks other files
	// declare (a constraint type, a DTO's field).
	Value validation.Check
	// File is the file as findings name it; Line, Col and EndLine where the
	// call stands.
	File               string
	Line, Col, EndLine int
}

// clauseSetters maps the setter of each Example clause property to it.
var clauseSetters = map[string]string{"setOrderByClause": "orderByClause"}

// clauseSets finds the Example clause setters of a Java file, their
// arguments evaluated by vals.
func clauseSets(s java.Syntax, vals *validation.Values) []ClauseSet {
	var out []ClauseSet
	t := s.Tokens()
	only, onlyRead := "", false
	for i := 2; i+1 < t.Len(); i++ {
		prop, ok := clauseSetters[t.At(i).Text]
		if !ok || t.At(i).Kind != java.TokIdent || !t.Is(i-1, ".") || !t.Is(i+1, "(") {
			continue
		}
		end := t.Match(i + 1)
		r := t.ChainStart(i)
		cs := ClauseSet{Property: prop, File: s.Path(), Line: t.At(r).Line, Col: t.At(r).Col, EndLine: t.At(end).Line,
			Value: vals.Of(i+2, end)}
		if r < i && t.At(r).Kind == java.TokIdent {
			cs.Example = t.DeclaredType(t.At(r).Text, r)
		}
		if cs.Example == "" {
			// criteria.example().setOrderByClause(…): the file's one
			// Example class, when it names only one.
			if !onlyRead {
				only, onlyRead = onlyExample(t), true
			}
			cs.Example = only
		}
		cs.Call = callText(t, r, i, end)
		out = append(out, cs)
	}
	return out
}

// callText writes the call whose chain starts at token r, names its method
// at token m and closes at end, its argument cut when long.
func callText(t java.Tokens, r, m, end int) string {
	var b strings.Builder
	for k := r; k <= end; k++ {
		if k > r && (t.At(k).Kind == java.TokIdent && t.At(k-1).Kind == java.TokIdent || spaced[t.At(k).Text] || spaced[t.At(k-1).Text]) {
			b.WriteByte(' ')
		}
		if b.Len() > 60 && k < end {
			b.WriteString("…")
			k = end - 1
			continue
		}
		b.WriteString(t.At(k).Text)
	}
	return b.String()
}

// spaced are the operators a call's text writes between spaces.
var spaced = map[string]bool{"+": true, "?": true, ":": true, "==": true, "!=": true, "&&": true, "||": true}

// onlyExample returns the one MyBatis Generator Example class a file names
// (an upper-case identifier ending in Example), or "" when it names none or
// several.
func onlyExample(t java.Tokens) string {
	found := ""
	for i := 0; i < t.Len(); i++ {
		tok := t.At(i)
		if tok.Kind != java.TokIdent || len(tok.Text) <= len("Example") || !strings.HasSuffix(tok.Text, "Example") || tok.Text[0] < 'A' || tok.Text[0] > 'Z' {
			continue
		}
		if found != "" && found != tok.Text {
			return ""
		}
		found = tok.Text
	}
	return found
}
