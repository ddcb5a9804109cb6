package driver

import (
	"github.com/guard-sql/guard/internal/frameworks/mybatis"
	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// dollarSources answers what the rules ask of the values that reach a
// MyBatis ${…} (Pass.ClauseSetters, Pass.DollarChecked), from the Java
// files of the whole run. The first run of the rules on a file knows no
// other file: it records the questions (dollarQuery), answered as if no
// caller were known, and the file is judged again when an answer changes.
type dollarSources struct{ ix *mybatis.Index }

// newDollarSources indexes the Java files of results.
func newDollarSources(results []fileResult) *dollarSources {
	var files []*java.File
	for _, r := range results {
		if r.java != nil {
			files = append(files, r.java)
		}
	}
	return &dollarSources{mybatis.NewIndex(files)}
}

// setters answers Pass.ClauseSetters: the setters of property that may
// reach statement fr with a value no check vouches for, as causes.
func (d *dollarSources) setters(fr *stmt.Fragment, property string) []lint.Cause {
	var out []lint.Cause
	for _, cs := range d.ix.Setters(fr, property) {
		out = append(out, lint.Cause{File: cs.File, Line: cs.Line, Col: cs.Col, EndLine: cs.EndLine,
			Call: cs.Call, Unchecked: d.ix.Unchecked(cs)})
	}
	return out
}

// checked answers Pass.DollarChecked.
func (d *dollarSources) checked(fr *stmt.Fragment, dl stmt.Dollar) bool { return d.ix.Checked(fr, dl) }

// dollarQuery is one question the first run of the rules on a file asked
// about a ${…}: of the setters of a caller-supplied property, or whether
// substitution d is checked. That run answered none and no.
type dollarQuery struct {
	fr       *stmt.Fragment
	property string
	d        stmt.Dollar
}

// askedDollars reports whether a question the first run asked about a
// ${…} is answered otherwise now that every Java file is known.
func (res *fileResult) askedDollars(ds *dollarSources) bool {
	for _, q := range res.dollars {
		if q.property != "" && len(ds.setters(q.fr, q.property)) > 0 || q.property == "" && ds.checked(q.fr, q.d) {
			return true
		}
	}
	return false
}

// answerDollars returns the answers to Pass.ClauseSetters and
// Pass.DollarChecked: ds's, or, in the first run (ds nil), none and no,
// each question recorded in asked.
func answerDollars(ds *dollarSources, asked *[]dollarQuery) (func(*stmt.Fragment, string) []lint.Cause, func(*stmt.Fragment, stmt.Dollar) bool) {
	if ds != nil {
		return ds.setters, ds.checked
	}
	setters := func(fr *stmt.Fragment, property string) []lint.Cause {
		*asked = append(*asked, dollarQuery{fr: fr, property: property})
		return nil
	}
	checked := func(fr *stmt.Fragment, d stmt.Dollar) bool {
		*asked = append(*asked, dollarQuery{fr: fr, d: d})
		return false
	}
	return setters, checked
}
