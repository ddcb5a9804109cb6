package java

import (
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// javaExecMethods are the JDBC, Spring JdbcTemplate, JdbcClient and
// JPA-native methods whose first string argument is SQL. The value says
// whether the name is JDBC's alone: execute, update, query and sql are also
// common outside databases, so there a string is SQL for sure only when the
// method is called on a JDBC object (see javaDBReceivers).
var javaExecMethods = map[string]bool{
	"prepareStatement": true, "prepareCall": true, "executeUpdate": true, "executeLargeUpdate": true,
	"executeQuery": true, "addBatch": true, "queryForObject": true, "queryForList": true,
	"queryForMap": true, "queryForRowSet": true, "queryForStream": true, "batchUpdate": true,
	"createNativeQuery": true, "createSQLQuery": true,
	"execute": false, "update": false, "query": false, "sql": false,
}

// javaCallKeywords may stand right before a call; any other name there makes
// "name(" a method declaration.
var javaCallKeywords = map[string]bool{
	"return": true, "throw": true, "case": true, "yield": true, "else": true, "assert": true, "do": true,
}

// javaMessageMethods take texts for people, not SQL: a SQL-looking literal
// concatenated with a value there is a message.
var javaMessageMethods = map[string]bool{
	"trace": true, "debug": true, "info": true, "warn": true, "warning": true, "error": true,
	"fatal": true, "severe": true, "log": true, "print": true, "println": true, "printf": true,
	"fail": true, "failed": true, "assertEquals": true, "assertTrue": true, "assertFalse": true, "assertThat": true,
	"checkArgument": true, "checkState": true, "checkNotNull": true, "requireNonNull": true,
	"notNull": true, "isTrue": true, "hasText": true,
}

// javaDBReceivers are words that, in the name of what execute, update or
// query is called on, tell a JDBC object or a JdbcTemplate.
var javaDBReceivers = []string{"jdbc", "template", "stmt", "statement", "conn", "runner"}

// calls reports the SQL passed to JDBC and Spring methods.
func (x *javaFile) calls() {
	for i, t := range x.toks {
		jdbcOnly, ok := javaExecMethods[t.text]
		if t.kind != javaIdent || !ok || !x.is(i+1, "(") || x.declaresMethod(i) {
			continue
		}
		closing := x.match[i+1]
		args := x.split(i+2, closing, ",")
		if len(args) == 0 {
			continue
		}
		if jdbcOnly || x.dbReceiver(i) {
			x.runsBuilder(args)
		}
		// The SQL comes first, or second after a connection (QueryRunner).
		arg := args[0]
		ev := x.eval(arg.s, arg.e, 0)
		if !ev.stringy && len(args) > 1 {
			arg = args[1]
			ev = x.eval(arg.s, arg.e, 0)
		}
		if ev.stringy {
			x.execArg(i, closing, arg, ev, jdbcOnly || x.dbReceiver(i))
		}
	}
}

// dbReceiver reports whether the method named at token i is called on
// something whose name tells a database object: jdbcTemplate.update,
// this.stmt.execute, getJdbcTemplate().query.
func (x *javaFile) dbReceiver(i int) bool {
	if !x.is(i-1, ".") {
		return false
	}
	k := i - 2
	if x.is(k, ")") {
		k = x.match[k] - 1
	}
	if !x.isIdent(k) {
		return false
	}
	name := strings.ToLower(x.toks[k].text)
	for _, w := range javaDBReceivers {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// runsBuilder records the builder whose toString() a call of a database
// method runs: jdbc.query(sb.toString(), …).
func (x *javaFile) runsBuilder(args []javaRange) {
	for _, a := range args[:min(len(args), 2)] {
		if a.e-a.s == 5 && x.isIdent(a.s) && x.is(a.s+1, ".") && x.is(a.s+2, "toString") && x.is(a.s+3, "(") && x.is(a.s+4, ")") {
			x.builderRun[x.builderKey(a.s)] = true
		}
	}
}

// builderKey names the builder whose name is token k: the name and the
// method body it stands in.
func (x *javaFile) builderKey(k int) string {
	return x.toks[k].text + "\x00" + strconv.Itoa(x.methodBlock(k))
}

// declaresMethod reports whether the name at token i is declared, not called.
func (x *javaFile) declaresMethod(i int) bool {
	if i == 0 {
		return false
	}
	p := x.toks[i-1]
	return p.kind == javaIdent && !javaCallKeywords[p.text] || x.is(i-1, ">") || x.is(i-1, "]")
}

// execArg reports the SQL argument arg of the call whose name is token call.
// sure tells that the call is a database call (a JDBC-only method, or one
// called on a JdbcTemplate); otherwise what it reports must prove to be SQL.
func (x *javaFile) execArg(call, closing int, arg javaRange, ev *javaEval, sure bool) {
	id := x.methodAt(call)
	if d := ev.whole; d != nil {
		// A named string: its text stands where it is defined.
		defs := x.defsAt(d, arg.s)
		sqlish := sure
		for _, df := range defs {
			if !x.extends(df) && x.defStartsSQL(df) {
				sqlish = true
			}
		}
		for _, df := range defs {
			if x.extends(df) {
				if sqlish {
					fr := x.addUnchecked(arg.s, arg.e, "SQL built at run time: "+d.name+" is extended at line "+strconv.Itoa(x.toks[df.start].line), id)
					if !sure {
						x.unsure(fr, x.evalDef(df, 0).text, d.name)
					}
				}
				return
			}
		}
		for _, df := range defs {
			v := x.evalDef(df, 0)
			switch {
			case !v.known() && sqlish && v.stringy:
				// Only a value assembled here is reported: one taken whole
				// from a method or another file's constant is not SQL
				// written here, like a parameter's.
				fr := x.addUnchecked(df.valStart, df.valEnd, v.reason(), x.defID(df))
				if !sure {
					x.unsure(fr, v.text, d.name)
				}
			case v.known() && x.defStartsSQL(df):
				df.usedWholeExec = true
				df.usedWholeSure = df.usedWholeSure || sure
			}
		}
		return
	}
	for _, r := range ev.refs {
		r.usedOther = true
	}
	if !ev.known() {
		if sure {
			x.addUnchecked(arg.s, arg.e, ev.reason(), id)
		} else if ev.prefixText().LooksLikeSQL() {
			x.unsure(x.addUnchecked(arg.s, arg.e, ev.reason(), id), ev.text, "")
		}
		return
	}
	if !ev.text.LooksLikeSQL() || !x.claim(arg.s, arg.e) {
		return
	}
	fr := x.addSQL(ev.text, x.chainStart(call), closing+1, id)
	if !sure {
		x.unsure(fr, ev.text, "")
	}
}

// chainStart returns the first token of the call chain whose last name is
// token k: conn.prepareStatement, this.jdbc.update, new Foo().bar.
func (x *javaFile) chainStart(k int) int {
	for k >= 2 && x.is(k-1, ".") {
		j := k - 2
		switch {
		case x.isIdent(j):
			k = j
		case x.is(j, ")") || x.is(j, "]"):
			m := x.match[j]
			if !x.isIdent(m - 1) {
				return m
			}
			k = m - 1
		default:
			return k
		}
	}
	if x.is(k-1, "new") {
		return k - 1
	}
	return k
}

// inMessage reports whether the expression starting at token s is an
// argument of a logging or assertion call or of an exception's constructor.
func (x *javaFile) inMessage(s int) bool {
	if !x.is(s-1, "(") && !x.is(s-1, ",") {
		return false
	}
	p := x.opener[s]
	if !x.is(p, "(") || !x.isIdent(p-1) {
		return false
	}
	name := x.toks[p-1].text
	if javaMessageMethods[name] {
		return true
	}
	// new XxxException("…"), and whatever is thrown: throw new BizFail("…").
	return x.is(p-2, "new") && (strings.HasSuffix(name, "Exception") || strings.HasSuffix(name, "Error") || x.is(p-3, "throw"))
}

// javaHTTPCalls are the methods and constructors whose argument is a URL
// or a request, never SQL: RestTemplate, WebClient/RestClient (uri),
// OkHttp (url), Apache HttpClient and java.net.
var javaHTTPCalls = map[string]bool{
	"getForObject": true, "getForEntity": true, "postForObject": true, "postForEntity": true, "postForLocation": true,
	"patchForObject": true, "exchange": true, "uri": true, "url": true, "HttpGet": true, "HttpPost": true,
	"HttpPut": true, "HttpDelete": true, "HttpPatch": true, "URI": true, "URL": true, "UriComponentsBuilder": true,
}

// toHTTP reports whether the expression starting at token s is an argument
// of an HTTP call, or is held by a local that only such arguments use.
func (x *javaFile) toHTTP(s int) bool {
	inHTTP := func(s int) bool {
		p := x.opener[s]
		return (x.is(s-1, "(") || x.is(s-1, ",")) && x.is(p, "(") && x.isIdent(p-1) && javaHTTPCalls[x.toks[p-1].text]
	}
	if inHTTP(s) {
		return true
	}
	name, body := x.holderAt(s), x.methodBlock(s)
	uses := 0
	for k := s; name != "" && body >= 0 && k < x.match[body]; k++ {
		if x.toks[k].text == name && x.isIdent(k) && !x.is(k-1, ".") && !x.is(k+1, "=") {
			if us, _ := x.slot(k); !inHTTP(us) {
				return false
			}
			uses++
		}
	}
	return uses > 0
}

// inAnnotation reports whether token s stands in the arguments of an annotation.
func (x *javaFile) inAnnotation(s int) bool {
	for p := x.opener[s]; p >= 0; p = x.opener[p] {
		if x.is(p, "(") && p > 0 && x.toks[p-1].kind == javaAnnot {
			return true
		}
	}
	return false
}

// builders reports SQL assembled by StringBuilder and String.format.
func (x *javaFile) builders() {
	// One report per builder and method: the builder's later appends extend
	// the same statement, and complete the text it is decided on.
	built := map[string]*javaPending{}
	extend := func(key string, text Text) bool {
		p, ok := built[key]
		if ok && p != nil && len(p.text) < 1<<20 {
			p.text += " " + text.String()
		}
		return ok
	}
	report := func(name, key string, fr *stmt.Fragment, text Text) {
		built[key] = nil
		if fr != nil && !x.builderRun[key] {
			x.unsure(fr, text, name)
			built[key] = x.pending[fr]
		}
	}
	for i, t := range x.toks {
		switch {
		case t.text == "new" && t.kind == javaIdent && (x.is(i+1, "StringBuilder") || x.is(i+1, "StringBuffer")) && x.is(i+2, "("):
			closing := x.match[i+2]
			ev := x.eval(i+3, closing, 0)
			if closing > i+3 && ev.prefixText().LooksLikeSQL() {
				fr := x.addUnchecked(i, closing+1, "SQL built at run time: "+x.toks[i+1].text+" starting with SQL", x.methodAt(i))
				if x.is(i-1, "=") && x.isIdent(i-2) {
					report(x.toks[i-2].text, x.builderKey(i-2), fr, ev.text) // StringBuilder sql = new StringBuilder("SELECT …")
				} else {
					x.unsure(fr, ev.text, "")
				}
			}
		case x.is(i, ".") && x.is(i+1, "append") && x.is(i+2, "("):
			closing := x.match[i+2]
			if closing == i+3 {
				continue
			}
			ev := x.eval(i+3, closing, 0)
			root := x.chainStart(i + 1)
			key := x.builderKey(root)
			sqlish := ev.prefixText().LooksLikeSQL()
			if extend(key, ev.text) {
				if sqlish {
					x.claim(root, closing+1)
				}
				continue
			}
			if !sqlish {
				continue
			}
			report(x.toks[root].text, key, x.addUnchecked(root, closing+1, "SQL built at run time: StringBuilder.append", x.methodAt(i)), ev.text)
		case x.is(i+3, "(") && x.formatCall(i, x.match[i+3]+1):
			end := x.match[i+3] + 1
			ev := x.eval(i, end, 0)
			if ev.prefixText().LooksLikeSQL() && !x.inMessage(i) && !x.toHTTP(i) {
				x.unsure(x.addUnchecked(i, end, ev.reason(), x.methodAt(i)), ev.text, x.holderAt(i))
			}
		}
	}
}

// literals reports SQL-looking literals concatenated with values known only
// at run time, wherever they stand (outside messages).
func (x *javaFile) literals() {
	done := make([]bool, len(x.toks))
	for i, t := range x.toks {
		if t.kind != javaString || done[i] || x.claimed[i] {
			continue
		}
		s, e := x.slot(i)
		for k := s; k < e; k++ {
			if x.toks[k].kind == javaString {
				done[k] = true
			}
			if x.is(k, "(") || x.is(k, "[") || x.is(k, "{") {
				k = x.match[k]
			}
		}
		if x.inAnnotation(s) {
			continue // compile-time constants; MyBatis ones are read above
		}
		ev := x.eval(s, e, 0)
		if ev.known() || !ev.prefixText().LooksLikeSQL() || x.inMessage(s) || x.toHTTP(s) {
			continue
		}
		x.unsure(x.addUnchecked(s, e, ev.reason(), x.methodAt(s)), ev.text, x.holderAt(s))
	}
}

// javaSlotEnds are the tokens that end an expression holding a literal.
var javaSlotEnds = map[string]bool{
	",": true, ";": true, "=": true, "?": true, ":": true, "->": true, "&&": true, "||": true,
	"==": true, "!=": true, "!": true, "+=": true, "-=": true, "*=": true, "/=": true,
	"%=": true, "&=": true, "|=": true, "^=": true, "<<=": true,
	"return": true, "throw": true, "yield": true, "case": true, "assert": true, "else": true,
}

// slot returns the tokens [s, e) of the expression around the literal at
// token i, up to the enclosing brackets, commas, assignments and statements.
func (x *javaFile) slot(i int) (int, int) {
	s := i
	for k := i - 1; k >= 0; k-- {
		t := x.toks[k]
		if x.is(k, ")") || x.is(k, "]") {
			k = x.match[k]
			s = k
			continue
		}
		if javaSlotEnds[t.text] && (t.kind == javaOp || t.kind == javaIdent) || x.is(k, "(") || x.is(k, "[") || x.is(k, "{") || x.is(k, "}") {
			break
		}
		s = k
	}
	e := i + 1
	for e < len(x.toks) {
		t := x.toks[e]
		if x.is(e, "(") || x.is(e, "[") {
			e = x.match[e] + 1
			continue
		}
		if javaSlotEnds[t.text] && (t.kind == javaOp || t.kind == javaIdent) || x.is(e, ")") || x.is(e, "]") || x.is(e, "{") || x.is(e, "}") {
			break
		}
		e++
	}
	return s, e
}
