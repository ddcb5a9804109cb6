package java

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/mybatisxml"
	"github.com/guard-sql/guard/internal/stmt"
)

// javaMyBatisPackage is where the MyBatis statement annotations live.
const javaMyBatisPackage = "org.apache.ibatis.annotations"

// javaMyBatisStatements are the annotations whose value is the SQL.
var javaMyBatisStatements = map[string]bool{"Select": true, "Insert": true, "Update": true, "Delete": true}

// javaMyBatisProviders are the annotations that name a Java method building
// the SQL at run time.
var javaMyBatisProviders = map[string]bool{"SelectProvider": true, "InsertProvider": true, "UpdateProvider": true, "DeleteProvider": true}

// javaDynamicSQLAdapter is the provider type of the mappers MyBatis
// Generator writes for the MyBatis Dynamic SQL runtime: it renders the
// statement provider its caller passes.
const javaDynamicSQLAdapter = "SqlProviderAdapter"

// providerType returns the simple name of the class a provider annotation's
// arguments, tokens from to before to, name by type = X.class (or value =);
// empty when they name none.
func (x *javaFile) providerType(from, to int) string {
	for j := from; j+3 < to; j++ {
		if (x.is(j, "type") || x.is(j, "value")) && x.is(j+1, "=") {
			k := j + 2
			for x.isIdent(k) && x.is(k+1, ".") && !x.is(k+2, "class") {
				k += 2 // a qualified name: org.mybatis.dynamic.sql.util.SqlProviderAdapter
			}
			if x.isIdent(k) && x.is(k+1, ".") && x.is(k+2, "class") {
				return x.toks[k].text
			}
		}
	}
	return ""
}

// annotations reports the SQL of MyBatis statement annotations.
func (x *javaFile) annotations() {
	// The first provider method of MyBatis Dynamic SQL's generic adapter,
	// and how many there are: one finding stands for all of them.
	var adapter *stmt.Fragment
	adapters := 0
	defer func() {
		if adapter != nil {
			adapter.Unchecked = fmt.Sprintf("SQL built at run time: %d methods of this mapper run the statement "+
				"MyBatis Dynamic SQL's %s renders from the DSL of their callers", adapters, javaDynamicSQLAdapter)
		}
	}()
	for i, t := range x.toks {
		if t.kind != javaAnnot || !x.is(i+1, "(") {
			continue
		}
		name, pkg := t.text, ""
		if dot := strings.LastIndexByte(name, '.'); dot >= 0 {
			name, pkg = name[dot+1:], name[:dot]
		}
		if !javaMyBatisStatements[name] && !javaMyBatisProviders[name] {
			continue
		}
		// An annotation of the same name from another framework (a web
		// framework's @Delete) is not MyBatis.
		if pkg != "" && pkg != javaMyBatisPackage || pkg == "" && x.imports[name] != "" && x.imports[name] != javaMyBatisPackage {
			continue
		}
		closing := x.match[i+1]
		id := x.annotatedMethod(closing + 1)
		if javaMyBatisProviders[name] {
			if x.providerType(i+2, closing) != javaDynamicSQLAdapter {
				x.addUnchecked(i, closing+1, "SQL built at run time: @"+name+" builds the statement in Java", id)
				continue
			}
			// MyBatis Dynamic SQL's generic adapter runs whatever statement
			// its caller built with the DSL: the same for each of the six
			// methods of every generated mapper, said once per file so
			// that it does not bury the providers of the project's own.
			adapters++
			if adapter == nil {
				adapter = x.addUnchecked(i, closing+1, "", id)
			} else {
				x.claim(i, closing+1)
			}
			continue
		}
		x.statementAnnotation(i, closing, pkg != "" || x.ibatis, id)
	}
}

// statementAnnotation reports the SQL of the annotation at token at, whose
// argument list closes at token closing. sure tells that the file imports
// MyBatis; without it only a value that looks like SQL is taken.
func (x *javaFile) statementAnnotation(at, closing int, sure bool, id string) {
	vs, ve := x.annotationValue(at+2, closing)
	if vs < 0 {
		return
	}
	var text Text
	var dynamic []string
	foreign := true
	pieces := []javaRange{{vs, ve}}
	if x.is(vs, "{") && x.match[vs] == ve-1 {
		// MyBatis joins the strings of an array with a space.
		pieces = x.split(vs+1, ve-1, ",")
	}
	first := true
	for _, p := range pieces {
		if p.s >= p.e {
			continue // a trailing comma
		}
		ev := x.eval(p.s, p.e, 0)
		for _, r := range ev.refs {
			r.usedOther = true
		}
		dynamic = append(dynamic, ev.dynamic...)
		foreign = foreign && ev.foreign == len(ev.dynamic)
		if !first {
			sp := Char{B: ' ', Line: x.toks[p.s].line, Col: x.toks[p.s].col}
			if len(text) > 0 {
				sp = text.next(' ')
			}
			text = append(text, sp)
		}
		first = false
		text = append(text, ev.text...)
	}
	if len(dynamic) > 0 {
		// An annotation's value is a compile-time constant: what is not
		// known here comes from another file.
		what := "constants"
		if !foreign {
			what = "values"
		}
		x.addUnchecked(at, closing+1, "MyBatis SQL uses "+what+" not defined in this file: "+strings.Join(dynamic, ", "), id)
		return
	}
	s := text.String()
	if strings.TrimSpace(s) == "" {
		return
	}
	script := strings.Contains(s, "<script>")
	if !sure && !script && !javaLooksLikeSQL(s) {
		return
	}
	if !x.claim(at, closing+1) {
		return
	}
	start, end := x.toks[at], x.toks[closing]
	if script {
		_, segs := text.Segments()
		for _, fr := range mybatisxml.ExtractMyBatisScript(x.path, s, segs, start.line) {
			fr.ID = id
			if fr.Unchecked == "" {
				fr.Line, fr.EndLine, fr.Col = start.line, max(end.endLine, fr.EndLine), start.col
			}
			x.frags = append(x.frags, fr)
		}
		return
	}
	sqlText, dollars, callerWhere := javaMyBatisPlaceholders(text)
	fr := x.addSQL(sqlText, at, closing+1, id)
	fr.Dollar = dollars
	fr.WhereFromCaller = callerWhere
}

// next returns a byte positioned where Fragment.Pos expects the byte after
// t, which must not be empty.
func (t Text) next(b byte) Char {
	last := t[len(t)-1]
	if last.B == '\n' {
		return Char{B: b, Line: last.Line + 1, Col: 1}
	}
	return Char{B: b, Line: last.Line, Col: last.Col + 1}
}

// annotationValue returns the token range of the value of an annotation
// whose arguments are tokens [s, e): the positional argument or value = ….
func (x *javaFile) annotationValue(s, e int) (int, int) {
	for _, el := range x.split(s, e, ",") {
		if x.isIdent(el.s) && x.is(el.s+1, "=") {
			if x.toks[el.s].text == "value" {
				return el.s + 2, el.e
			}
			continue
		}
		if el.s < el.e {
			return el.s, el.e
		}
	}
	return -1, -1
}

// annotatedMethod returns the name of the method declared after an
// annotation: the first name followed by '(' from token k, past other
// annotations and their arguments.
func (x *javaFile) annotatedMethod(k int) string {
	for ; k < len(x.toks); k++ {
		t := x.toks[k]
		switch {
		case t.kind == javaAnnot:
			if x.is(k+1, "(") {
				k = x.match[k+1]
			}
		case t.kind == javaOp && (t.text == ";" || t.text == "{" || t.text == "}"):
			return ""
		case t.kind == javaIdent && x.is(k+1, "("):
			return t.text
		}
	}
	return ""
}
