// Package mybatis reads the SQL of MyBatis's statement annotations in Java
// mappers (@Select, @Insert, @Update, @Delete, and the providers that
// build it at run time), and what host code hands the ${…} of a statement:
// the MyBatis Generator Example clauses it sets, the mapper methods'
// parameters and the calls that pass them, with what checks those values
// (internal/frameworks/validation). It reads the file through the Java
// reader's views (java.Syntax, java.Tokens), while the file is extracted;
// Index joins what every file of a run shows.
package mybatis

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/hostcode/mybatisxml"
	"github.com/guard-sql/guard/internal/stmt"
)

// frameworkName is the name the package registers with the Java reader,
// and the key of its Facts in java.File.Frameworks.
const frameworkName = "MyBatis"

func init() {
	java.Register(java.Framework{Name: frameworkName, Declarations: declarations})
}

// declarations reads the statement annotations of a file, and keeps the
// methods of its mapper interfaces for the statements of mapper XML and
// what reaches their ${…} (Facts).
func declarations(s java.Syntax) any {
	ms := methods(s)
	annotations(s, byMethod(ms))
	f := facts(s)
	if len(ms) > 0 {
		if f == nil {
			f = &Facts{}
		}
		f.Methods = ms
	}
	if f == nil {
		return nil
	}
	return f
}

// annotationsPackage is where the MyBatis statement annotations live.
const annotationsPackage = "org.apache.ibatis.annotations"

// statements are the annotations whose value is the SQL.
var statements = map[string]bool{"Select": true, "Insert": true, "Update": true, "Delete": true}

// providers are the annotations that name a Java method building the SQL
// at run time.
var providers = map[string]bool{"SelectProvider": true, "InsertProvider": true, "UpdateProvider": true, "DeleteProvider": true}

// dynamicSQLAdapter is the provider type of the mappers MyBatis Generator
// writes for the MyBatis Dynamic SQL runtime: it renders the statement
// provider its caller passes.
const dynamicSQLAdapter = "SqlProviderAdapter"

// providerType returns the simple name of the class a provider annotation
// names by type = X.class (or value = X.class); empty when it names none.
func providerType(a java.Annotation) string {
	v, ok := a.Args["type"]
	if !ok && !a.Bare {
		v = a.Args["value"]
	}
	name, ok := strings.CutSuffix(v, ".class")
	if !ok || name == "" {
		return ""
	}
	return name[strings.LastIndexByte(name, '.')+1:]
}

// annotations reports the SQL of the MyBatis statement annotations of a
// file, whose mapper methods are methods.
func annotations(s java.Syntax, methods map[string]*Method) {
	ibatis := false
	for _, name := range s.Imports() {
		ibatis = ibatis || strings.HasPrefix(name, "org.apache.ibatis.")
	}
	// The first provider method of MyBatis Dynamic SQL's generic adapter,
	// and how many there are: one finding stands for all of them.
	var adapter *stmt.Fragment
	adapters := 0
	for _, a := range s.Annotations(func(n string) bool { return statements[n] || providers[n] }) {
		name, pkg := a.Name, ""
		if dot := strings.LastIndexByte(name, '.'); dot >= 0 {
			name, pkg = name[dot+1:], name[:dot]
		}
		// An annotation of the same name from another framework (a web
		// framework's @Delete) is not MyBatis.
		if pkg != "" && pkg != annotationsPackage {
			continue
		}
		id := s.AnnotatedMethod(a)
		if providers[name] {
			if providerType(a) != dynamicSQLAdapter {
				s.AddUnchecked(a, "SQL built at run time: @"+name+" builds the statement in Java", id)
				continue
			}
			// MyBatis Dynamic SQL's generic adapter runs whatever statement
			// its caller built with the DSL: the same for each of the six
			// methods of every generated mapper, said once per file so
			// that it does not bury the providers of the project's own.
			adapters++
			if adapter == nil {
				adapter = s.AddUnchecked(a, "", id)
			} else {
				s.Claim(a)
			}
			continue
		}
		statement(s, a, pkg != "" || ibatis, id, methods[id])
	}
	if adapter != nil {
		adapter.Unchecked = fmt.Sprintf("SQL built at run time: %d methods of this mapper run the statement "+
			"MyBatis Dynamic SQL's %s renders from the DSL of their callers", adapters, dynamicSQLAdapter)
	}
}

// statement reports the SQL of statement annotation a on method m (nil
// when unknown). sure tells that the file imports MyBatis; without it only
// a value that looks like SQL is taken.
func statement(s java.Syntax, a java.Annotation, sure bool, id string, m *Method) {
	pieces, ok := s.AnnotationValues(a)
	if !ok {
		return
	}
	var text java.Text
	var dynamic []string
	foreign := true
	for i, p := range pieces {
		dynamic = append(dynamic, p.Dynamic...)
		foreign = foreign && p.Foreign
		if i > 0 {
			// MyBatis joins the strings of an array with a space.
			sp := java.Char{B: ' ', Line: p.Line, Col: p.Col}
			if len(text) > 0 {
				sp = next(text, ' ')
			}
			text = append(text, sp)
		}
		text = append(text, p.Text...)
	}
	if len(dynamic) > 0 {
		// An annotation's value is a compile-time constant: what is not
		// known here comes from another file.
		what := "constants"
		if !foreign {
			what = "values"
		}
		s.AddUnchecked(a, "MyBatis SQL uses "+what+" not defined in this file: "+strings.Join(dynamic, ", "), id)
		return
	}
	sql := text.String()
	if strings.TrimSpace(sql) == "" {
		return
	}
	script := strings.Contains(sql, "<script>")
	if !sure && !script && !hostcode.LooksLikeSQL(sql) {
		return
	}
	if !s.Claim(a) {
		return
	}
	if script {
		col, endLine := s.Span(a)
		_, segs := text.Segments()
		for _, fr := range mybatisxml.ExtractMyBatisScript(s.Path(), sql, segs, a.Line) {
			fr.ID = id
			fr.ParamSources = bind(m, id, fr.ParamSources)
			if fr.Unchecked == "" {
				fr.Line, fr.EndLine, fr.Col = a.Line, max(endLine, fr.EndLine), col
			}
			s.AddFragment(fr)
		}
		return
	}
	sqlText, dollars, callerWhere, names := placeholders(text)
	fr := s.AddSQL(a, sqlText, id)
	fr.Dollar = dollars
	fr.WhereFromCaller = callerWhere
	fr.ParamSources = bind(m, id, mybatisxml.ParamSources(fr.SQL, id, names))
}

// bind resolves the placeholders of statement id known by name (ps) with
// the parameters of its method m, dropping those m does not bind.
func bind(m *Method, id string, ps []stmt.ParamSource) []stmt.ParamSource {
	if m == nil {
		return nil
	}
	var out []stmt.ParamSource
	for _, p := range ps {
		p.Func = id
		if p, ok := m.Bind(p); ok {
			out = append(out, p)
		}
	}
	return out
}

// next returns a byte positioned where Fragment.Pos expects the byte after
// t, which must not be empty.
func next(t java.Text, b byte) java.Char {
	last := t[len(t)-1]
	if last.B == '\n' {
		return java.Char{B: b, Line: last.Line + 1, Col: 1}
	}
	return java.Char{B: b, Line: last.Line, Col: last.Col + 1}
}
