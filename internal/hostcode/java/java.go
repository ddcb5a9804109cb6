package java

import (
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
)

// ExtractJava finds the SQL of a Java file without compiling it: a small lexer
// cuts the file into tokens and the extractor recognises, in the token stream,
//
//   - MyBatis @Select, @Insert, @Update and @Delete annotations (one Fragment
//     per annotation, ID the annotated method; #{x} and ${x} become ?, and
//     each ${x} is recorded as a Dollar; <script> bodies are rendered like a
//     mapper XML statement);
//   - strings run by JDBC and Spring methods (prepareStatement, executeUpdate,
//     JdbcTemplate.update, query…, createNativeQuery), followed through
//     String constants and local variables, and reported where their text
//     stands: at the call, or once at the declaration a call runs whole;
//   - static final String constants whose value looks like SQL, unless the
//     file only uses them as pieces of larger statements;
//   - SQL built at run time (a SQL-looking literal concatenated with a value,
//     String.format, StringBuilder.append) as Unchecked fragments naming what.
//
// Starting like SQL is not enough: the text of an exception, a log line or an
// assertion is never SQL ("update stock failed"), and a string that no
// MyBatis annotation or JDBC call of the file runs (a constant, a value
// passed to a method guard does not know) is SQL only when it parses as a
// statement, or, built at run time, when its constant parts have a
// statement's skeleton (see sqlparse.LooksLikeStatement).
//
// A file the lexer cannot read yields one Unchecked fragment at the place
// that broke. guard:ignore comments become Suppressions.
func ExtractJava(path string, src []byte) *File {
	return ExtractJavaWith(path, src, nil)
}

// ExtractJavaWith is ExtractJava with the MyBatis-Plus entity classes of
// the whole run, which give the tables and columns of the entity writes and
// update wrappers of the file (frameworks/mybatisplus reads them).
func ExtractJavaWith(path string, src []byte, entities *EntityIndex) *File {
	f := &File{File: &hostcode.File{Path: path, Lang: stmt.LangJava}}
	toks, comments, rerr := lexJava(src)
	f.Suppressions = javaSuppressions(comments)
	x, xerr := (*javaFile)(nil), rerr
	if rerr == nil {
		x, xerr = newJavaFile(path, toks)
	}
	if x != nil {
		x.entities = entities
	}
	if xerr != nil {
		f.Fragments = []*stmt.Fragment{{
			File: path, Lang: stmt.LangJava, Unchecked: "java: cannot read file: " + xerr.msg,
			Line: xerr.line, EndLine: xerr.line, Col: xerr.col,
		}}
		return f
	}
	x.readDeclarations(f)
	x.calls()
	x.builders()
	x.literals()
	x.declarations()
	x.keepSQL()
	x.plusWrappers()
	stmt.SortFragments(x.frags)
	f.Fragments = x.frags
	sites := x.mapperCalls()
	for _, s := range sites {
		f.MapperCalls = append(f.MapperCalls, *s.call)
	}
	f.MapperCalls = append(f.MapperCalls, x.plusEntityWrites()...)
	f.ServiceCalls = x.serviceCalls()
	f.Types = x.javaTypes(sites)
	f.MapperCalls = append(f.MapperCalls, x.frameworkCalls()...)
	f.UsesEntities = x.usedEntities
	f.NegatedArgs = x.negatedArgs()
	x.contexts(f)
	return f
}

// javaSuppressions reads the guard:ignore comments. A comment spanning lines
// counts at its last line, the one right above what it suppresses.
func javaSuppressions(comments []javaComment) []stmt.Suppression {
	var out []stmt.Suppression
	for _, c := range comments {
		text := c.text
		if c.block {
			var lines []string
			for _, l := range strings.Split(text, "\n") {
				// Javadoc-style comments start their lines with '*'.
				lines = append(lines, strings.TrimLeft(strings.TrimSpace(l), "*"))
			}
			text = strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
		}
		if code, reason, ok := hostcode.ParseSuppression(text); ok {
			out = append(out, stmt.Suppression{Code: code, Reason: reason, Line: c.endLine, Col: c.col})
		}
	}
	return out
}

// claim marks tokens [s, e) as inside a reported fragment; it returns false
// when some already were, so that one construct is reported once.
func (x *javaFile) claim(s, e int) bool {
	s, e = max(s, 0), min(e, len(x.toks))
	for k := s; k < e; k++ {
		if x.claimed[k] {
			return false
		}
	}
	for k := s; k < e; k++ {
		x.claimed[k] = true
	}
	return true
}

// addSQL reports the SQL text held by tokens [s, e).
func (x *javaFile) addSQL(text Text, s, e int, id string) *stmt.Fragment {
	sql, segs := text.Segments()
	start, last := x.toks[s], x.toks[max(e-1, s)]
	fr := &stmt.Fragment{
		File: x.path, Lang: stmt.LangJava, SQL: sql, Segments: segs,
		Line: start.line, EndLine: last.endLine, Col: start.col, ID: id,
	}
	x.frags = append(x.frags, fr)
	return fr
}

// addUnchecked reports tokens [s, e) as SQL that cannot be checked, unless
// they are already part of a reported fragment (then it returns nil).
func (x *javaFile) addUnchecked(s, e int, reason, id string) *stmt.Fragment {
	if s >= e || !x.claim(s, e) {
		return nil
	}
	start, last := x.toks[s], x.toks[e-1]
	fr := &stmt.Fragment{
		File: x.path, Lang: stmt.LangJava, Unchecked: reason,
		Line: start.line, EndLine: last.endLine, Col: start.col, ID: id,
	}
	x.frags = append(x.frags, fr)
	return fr
}

// unsure records that no statement annotation or JDBC call runs fr: it is
// kept only if it parses, or, built at run time, if text (its constant
// parts) has a statement's skeleton. A value held by a name that says SQL
// (String sql = …, holder) is kept.
func (x *javaFile) unsure(fr *stmt.Fragment, text Text, holder string) *stmt.Fragment {
	if fr != nil && !hostcode.SQLName(holder) {
		x.pending[fr] = &javaPending{text: text.String()}
	}
	return fr
}

// holderAt is the name the expression starting at token s is assigned to
// (sql = …, String sql = …), "" when it is not.
func (x *javaFile) holderAt(s int) string {
	if (x.is(s-1, "=") || x.is(s-1, "+=")) && x.isIdent(s-2) {
		return x.toks[s-2].text
	}
	return ""
}

// javaPending is a fragment no database call is known to run.
type javaPending struct {
	text string
}

// keepSQL drops the fragments of unknown use that are not SQL after all.
func (x *javaFile) keepSQL() {
	x.frags = slices.DeleteFunc(x.frags, func(fr *stmt.Fragment) bool {
		p := x.pending[fr]
		if p == nil {
			return false
		}
		if fr.Unchecked != "" {
			return !sqlparse.LooksLikeStatement(p.text)
		}
		if x.parser == nil {
			x.parser = sqlparse.NewParser()
		}
		return !x.parser.HoldsStatement(fr.SQL)
	})
}

// defID names the statement of a definition: the constant, or the method.
func (x *javaFile) defID(df *javaDef) string {
	if df.decl.member {
		return df.decl.name
	}
	return x.methodAt(df.start)
}

// declarations reports the SQL that stands in declarations: constants that
// look like SQL (unless only used as pieces of larger strings or by MyBatis
// annotations), and definitions of variables that a JDBC call runs whole.
func (x *javaFile) declarations() {
	// Whatever a definition reads is a piece of it.
	for _, d := range x.order {
		for _, df := range x.defsAt(d, len(x.toks)) {
			for _, r := range x.evalDef(df, 0).refs {
				if r != d {
					r.usedOther = true
				}
			}
		}
	}
	for _, d := range x.order {
		for _, df := range x.defsAt(d, len(x.toks)) {
			if df.reported || x.extends(df) {
				continue
			}
			whole := df.usedWholeExec || d.constant && df == d.init && !d.usedOther
			if !whole {
				continue
			}
			v := x.evalDef(df, 0)
			sure := df.usedWholeSure || hostcode.SQLName(d.name)
			if !v.known() {
				if v.prefixText().LooksLikeSQL() || df.usedWholeExec {
					fr := x.addUnchecked(df.valStart, df.valEnd, v.reason(), x.defID(df))
					if !sure {
						x.unsure(fr, v.text, "")
					}
				}
				continue
			}
			if !v.text.LooksLikeSQL() {
				continue
			}
			df.reported = true
			x.claim(df.valStart, df.valEnd)
			end := df.valEnd
			if x.is(end, ";") {
				end++
			}
			fr := x.addSQL(v.text, df.start, end, x.defID(df))
			if !sure {
				x.unsure(fr, v.text, "")
			}
		}
	}
}
