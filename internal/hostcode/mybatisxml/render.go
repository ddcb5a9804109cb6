package mybatisxml

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
)

// Variant descriptions of dynamic MyBatis statements.
const (
	variantPresent = "with every optional condition present"
	variantAbsent  = stmt.VariantAbsent
)

// mbMaxVariants bounds the fragments one dynamic statement turns into.
const mbMaxVariants = 8

// Limits that keep a mapper whose includes multiply (a includes b twice, b
// includes c twice, …) from rendering for ever: per rendering of a statement,
// and for all the statements of one file.
const (
	mbMaxBytes      = 1 << 20
	mbMaxVisits     = 100_000
	mbMaxFileBytes  = 16 << 20
	mbMaxFileVisits = 1_000_000
)

// mbMaxDepth bounds how deep the dynamic tags of one statement nest, the
// <sql> elements it includes counted in: real mappers nest fewer than ten
// levels, and a limit keeps the time of a rendering linear in its size.
const mbMaxDepth = 64

// mbTooDeep is why a statement that nests deeper than mbMaxDepth is not checked.
var mbTooDeep = fmt.Sprintf("too deeply nested (more than %d levels of dynamic tags)", mbMaxDepth)

// mbTooLarge is why a statement whose expansion hits a limit is not checked.
const mbTooLarge = "statement is too large to check once its includes are expanded"

// mbWhereOverrides are the prefixes MyBatis's <where> strips.
var mbWhereOverrides = []string{"AND ", "OR ", "AND\n", "OR\n", "AND\r", "OR\r", "AND\t", "OR\t"}

// mbMapper holds what statements of one mapper share: its <sql> fragments.
type mbMapper struct {
	namespace string
	sqls      map[string]*mbNode // by namespace-qualified id
	// generated is set for a mapper MyBatis Generator wrote (see xml_mbg.go).
	generated bool
	// conds caches the conjuncts of each <if> test (see mbConds).
	conds map[*mbNode][]mbCond
	// bytes and visits count the work of every rendering so far.
	bytes, visits int
}

func newMbMapper(root *mbNode) *mbMapper {
	m := &mbMapper{sqls: map[string]*mbNode{}, conds: map[*mbNode][]mbCond{}}
	if root == nil {
		return m
	}
	m.namespace = root.attr("namespace")
	for _, n := range root.kids {
		if n.name != "sql" {
			continue
		}
		// The first declaration wins, as MyBatis keeps the first it parsed.
		if id := m.qualify(n.attr("id")); m.sqls[id] == nil {
			m.sqls[id] = n
		}
		m.generated = m.generated || mbExampleWhereIDs[n.attr("id")]
	}
	return m
}

// qualify applies the mapper's namespace to an id, as MyBatis does: an id
// holding a dot is already qualified.
func (m *mbMapper) qualify(id string) string {
	if strings.Contains(id, ".") {
		return id
	}
	return m.namespace + "." + id
}

// fragments renders statement n in each of its variants. base carries the
// fields every fragment of the statement shares.
func (m *mbMapper) fragments(n *mbNode, base stmt.Fragment) []*stmt.Fragment {
	if n.tooDeep {
		fr := base
		fr.Unchecked = mbTooDeep
		return []*stmt.Fragment{&fr}
	}
	base.WhereFromCaller = m.includesExampleWhere(n, nil)
	base.EngineBranches = m.picksEngine(n)
	first := m.render(n, mbForm{})
	if !first.optional {
		return []*stmt.Fragment{first.fragment(base, "")}
	}
	var out []*stmt.Fragment
	seen := map[string]bool{}
	add := func(r *mbRender, variant string) {
		fr := r.fragment(base, variant)
		key := "sql:" + fr.SQL
		if fr.Unchecked != "" {
			key = "unchecked:" + fr.Unchecked
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, fr)
		}
	}
	add(first, variantPresent)
	absent := m.render(n, mbForm{absent: true})
	add(absent, variantAbsent)
	if len(absent.emptied) > 0 {
		// A <set> or <trim> left empty, or an <if> holding the SET keyword
		// left out, makes SQL the server refuses: the form that can run keeps
		// what those elements hold, every other condition still absent (a SET
		// list with no WHERE, say).
		keep := map[*mbNode]bool{}
		var where []string
		for _, e := range absent.emptied {
			keep[e] = true
			where = append(where, mbDescribe(e))
		}
		add(m.render(n, mbForm{absent: true, keep: keep}), variantAbsent+" except inside "+strings.Join(where, ", "))
	}
	for _, c := range first.chooses {
		for j, w := range mbWhens(c) {
			if j == 0 {
				continue
			}
			if len(out) >= mbMaxVariants {
				return out
			}
			add(m.render(n, mbForm{pick: map[*mbNode]int{c: j}}),
				fmt.Sprintf("with <when test=%q> at line %d chosen", w.attr("test"), w.line))
		}
	}
	for _, k := range first.excluded {
		if len(out) >= mbMaxVariants {
			return out
		}
		add(m.render(n, mbForm{prefer: map[*mbNode]bool{k: true}}),
			fmt.Sprintf("with <if test=%q> at line %d chosen over the <if> siblings it excludes", k.attr("test"), k.line))
	}
	return out
}

// mbEnginePaths are the last segments (lower case) of the property paths
// that name the database a statement runs on: MyBatis's own _databaseId
// (set by a DatabaseIdProvider) and the names mappers give a flag of their
// own.
var mbEnginePaths = map[string]bool{
	"_databaseid": true, "databaseid": true, "dbtype": true, "datatype": true,
	"databasetype": true, "dialect": true, "dbdialect": true,
}

// picksEngine reports whether an <if> or <when> inside n tests a path that
// names the database.
func (m *mbMapper) picksEngine(n *mbNode) bool {
	for _, k := range n.kids {
		if k.name == "if" || k.name == "when" {
			for _, c := range m.ifConds(k) {
				path := strings.ToLower(c.path)
				if i := strings.LastIndexByte(path, '.'); i >= 0 {
					path = path[i+1:]
				}
				if mbEnginePaths[path] {
					return true
				}
			}
		}
		if k.name != "" && m.picksEngine(k) {
			return true
		}
	}
	return false
}

// ifConds returns the conjuncts of the test of <if> k, parsed once.
func (m *mbMapper) ifConds(k *mbNode) []mbCond {
	c, ok := m.conds[k]
	if !ok {
		c = mbConds(k.attr("test"))
		m.conds[k] = c
	}
	return c
}

// mbWhens returns the <when> children of a <choose>.
func mbWhens(choose *mbNode) []*mbNode {
	var ws []*mbNode
	for _, k := range choose.kids {
		if k.name == "when" {
			ws = append(ws, k)
		}
	}
	return ws
}

// mbForm says which form of a dynamic statement a rendering produces.
type mbForm struct {
	absent bool            // every <if> false, every <choose> on its <otherwise>
	pick   map[*mbNode]int // <choose> → index of the <when> taken instead of the first
	// keep lists the <set>, <trim> and <if> elements rendered with every
	// condition present even when absent is set.
	keep map[*mbNode]bool
	// prefer lists the <if> elements rendered whatever their earlier
	// siblings: a sibling whose test excludes theirs is left out instead.
	prefer map[*mbNode]bool
}

// mbRender is one rendering of a statement.
type mbRender struct {
	m *mbMapper
	mbForm
	// emptied lists the <set> and <trim> elements whose every condition was
	// absent, which left them empty, and the absent <if> elements that held
	// the statement's SET keyword.
	emptied []*mbNode
	// excluded lists the <if> elements left out, each once, because the test
	// of a sibling rendered before them excludes theirs.
	excluded []*mbNode
	out      mbBuf         // the statement's SQL
	dollar   []stmt.Dollar // ${…} substitutions met
	// test is the test of the innermost <if> or <when> being rendered; items
	// are the item names of the <foreach> elements around the text.
	test  string
	items []string
	// locals are the names the statement itself gives values (the item and
	// index of each <foreach> around the text, the <bind> variables met);
	// binds names the value of each ? written so far (placeholders.go).
	locals []string
	binds  []string
	// exampleWhere counts the MyBatis Generator Example where clauses being
	// included (see xml_mbg.go).
	exampleWhere int
	// nullKept holds the `x == null` <if> elements rendered with every
	// optional value absent (see nullBranch).
	nullKept map[*mbNode]bool
	// callerWhere is set once a MyBatis-Plus wrapper's WHERE segment was
	// pasted (see xml_mpsegment.go): the statement's WHERE is the caller's.
	callerWhere bool
	// optional records whether an <if> or <choose> was met: a statement without
	// either renders the same whatever the conditions.
	optional  bool
	chooses   []*mbNode // <choose> elements met, in order, each once
	err       *mbError
	size      int
	visits    int
	depth     int       // elements being rendered, nested
	including []*mbNode // <sql> elements being included, to stop cycles
}

// mbBuf collects SQL like a MyBatis DynamicContext: the statement's own
// context joins the pieces with a space, a <trim>'s context glues them.
type mbBuf struct {
	t    mbText
	join bool
}

func (m *mbMapper) render(n *mbNode, form mbForm) *mbRender {
	r := &mbRender{m: m, mbForm: form, out: mbBuf{join: true}}
	r.children(n, nil, &r.out)
	return r
}

// fragment turns the rendering into a Fragment described by variant.

func (r *mbRender) fragment(base stmt.Fragment, variant string) *stmt.Fragment {
	fr := base
	fr.Variant = variant
	fr.Dollar = r.dollar
	fr.WhereFromCaller = fr.WhereFromCaller || r.callerWhere
	if len(r.emptied) > 0 {
		fr.EmptiedClause = mbDescribe(r.emptied[0])
	}
	switch {
	case r.err != nil:
		// The fragment stays at its element, where a guard:ignore applies and
		// where the statement's other variants stand; the message says where
		// the problem is.
		fr.Unchecked = r.err.msg
		if r.err.line > 0 {
			fr.Unchecked += fmt.Sprintf(" at %d:%d", r.err.line, r.err.col)
		}
	case len(bytes.TrimSpace(r.out.t.s)) == 0:
		fr.Unchecked = "statement is empty"
		if r.absent {
			fr.Unchecked = stmt.EmptyWhenAbsent
		}
	default:
		fr.SQL = string(r.out.t.s)
		fr.Segments = r.out.t.segs
		fr.ParamSources = ParamSources(fr.SQL, fr.ID, r.binds)
	}
	return &fr
}

// spend accounts for work done and reports whether the limits still allow
// more; once they do not, the rendering has failed.
func (r *mbRender) spend(bytes, visits int) bool {
	r.size += bytes
	r.visits += visits
	r.m.bytes += bytes
	r.m.visits += visits
	if r.size > mbMaxBytes || r.visits > mbMaxVisits || r.m.bytes > mbMaxFileBytes || r.m.visits > mbMaxFileVisits {
		r.fail(mbTooLarge, 0, 0)
		return false
	}
	return true
}

func (r *mbRender) fail(msg string, line, col int) {
	if r.err == nil {
		r.err = &mbError{msg: msg, line: line, col: col}
	}
}

// add appends a piece to b, as DynamicContext.appendSql.
func (r *mbRender) add(b *mbBuf, piece mbText) {
	if !r.spend(len(piece.s)+1, 0) {
		return
	}
	if b.join && len(b.t.s) > 0 {
		b.t.s = append(b.t.s, ' ')
	}
	b.t.add(piece)
}

func (r *mbRender) children(n *mbNode, props map[string]string, b *mbBuf) {
	var taken []*mbNode // the <if> children rendered so far
	for _, k := range n.kids {
		if r.err != nil {
			return
		}
		if k.name == "if" && r.absent && !r.keep[k] && r.m.nullBranch(n, k) {
			if r.nullKept == nil {
				r.nullKept = map[*mbNode]bool{}
			}
			r.nullKept[k] = true
		}
		if k.name == "if" && (!r.absent || r.keep[k] || r.nullKept[k]) {
			if r.excludes(n, k, taken) {
				r.optional = true
				continue
			}
			taken = append(taken, k)
		}
		r.node(k, props, b)
	}
}

// excludes reports whether <if> k, a child of n, is left out of this
// rendering: a preferred sibling's test, or the test of a sibling already
// rendered, cannot hold together with k's. No call renders both, so no
// variant joins them.
func (r *mbRender) excludes(n, k *mbNode, taken []*mbNode) bool {
	conds := r.m.ifConds(k)
	if len(conds) == 0 {
		return false
	}
	if !r.prefer[k] {
		for p := range r.prefer {
			if p != k && mbIsChild(n, p) && mbExclusive(r.m.ifConds(p), conds) {
				return true
			}
		}
	}
	for _, t := range taken {
		if mbExclusive(r.m.ifConds(t), conds) {
			if !slices.Contains(r.excluded, k) {
				r.excluded = append(r.excluded, k)
			}
			return true
		}
	}
	return false
}

// nullBranch reports whether <if> k of n is the one of its siblings that
// holds when every optional value is absent, and some sibling always holds:
// k tests its paths == null, and the siblings made of null tests of the
// same paths cover every combination (`x != null` / `x == null`; the four
// of `a` and `b` present or not). Leaving them all out would render SQL no
// call sends: `<if test="ew.sqlSelect != null">` and its `== null` twin
// pick a column list, and without either a SELECT has no columns.
func (m *mbMapper) nullBranch(n, k *mbNode) bool {
	own, ok := mbNullTests(k.attr("test"))
	if !ok || len(own) > 4 {
		return false
	}
	paths := make([]string, 0, len(own))
	for p, isNull := range own {
		if !isNull {
			return false
		}
		paths = append(paths, p)
	}
	covered := map[int]bool{}
	for _, s := range n.kids {
		if s.name != "if" {
			continue
		}
		tests, ok := mbNullTests(s.attr("test"))
		if !ok || len(tests) != len(paths) {
			continue
		}
		mask := 0
		for i, p := range paths {
			isNull, has := tests[p]
			if !has {
				mask = -1
				break
			}
			if !isNull {
				mask |= 1 << i
			}
		}
		if mask >= 0 {
			covered[mask] = true
		}
	}
	return len(covered) == 1<<len(paths)
}

// mbIsChild reports whether k is a child of n.
func mbIsChild(n, k *mbNode) bool {
	return slices.Contains(n.kids, k)
}

func (r *mbRender) node(k *mbNode, props map[string]string, b *mbBuf) {
	if !r.spend(0, 1) {
		return
	}
	if k.name != "" {
		if r.depth >= mbMaxDepth {
			r.fail(mbTooDeep, k.line, k.col)
			return
		}
		r.depth++
		defer func() { r.depth-- }()
	}
	switch k.name {
	case "":
		r.add(b, r.text(k.text, props))
	case "if":
		r.optional = true
		switch {
		case !r.absent || r.keep[k] || r.nullKept[k]:
			test, absent := r.test, r.absent
			r.test, r.absent = k.attr("test"), false
			r.children(k, props, b)
			r.test, r.absent = test, absent
		case mbHoldsSetKeyword(k):
			// `UPDATE t <if test="…">SET a = ?</if> WHERE …` without its SET
			// is SQL MyBatis sends and the server refuses, like an empty <set>.
			r.emptied = append(r.emptied, k)
		}
	case "choose":
		r.choose(k, props, b)
	case "where":
		r.trim(k, props, b, mbTrim{prefix: "WHERE", hasPrefix: true, prefixOv: mbWhereOverrides})
	case "set":
		r.trim(k, props, b, mbTrim{prefix: "SET", hasPrefix: true, prefixOv: []string{","}, suffixOv: []string{","}})
	case "trim":
		var t mbTrim
		t.prefix, t.hasPrefix = k.lookupAttr("prefix")
		t.suffix, t.hasSuffix = k.lookupAttr("suffix")
		t.prefixOv = mbOverrides(k.attr("prefixOverrides"))
		t.suffixOv = mbOverrides(k.attr("suffixOverrides"))
		r.trim(k, props, b, t)
	case "foreach":
		// Rendered once, between open and close: enough for `IN (?)` to
		// parse. After BETWEEN, a list joined by AND is the range's two
		// ends (`BETWEEN <foreach separator=" AND ">`), and it is rendered
		// twice.
		between := k.attr("open") == "" && strings.EqualFold(strings.TrimSpace(k.attr("separator")), "AND") && endsWithBetween(b.t.s)
		if open := k.attr("open"); open != "" {
			r.add(b, mbWord(open, k.line, k.col))
		}
		r.items = append(r.items, k.attr("item"))
		locals := len(r.locals)
		r.locals = append(r.locals, k.attr("item"), k.attr("index"))
		r.children(k, props, b)
		if between {
			r.add(b, mbWord(" AND ", k.line, k.col))
			r.children(k, props, b)
		}
		r.items = r.items[:len(r.items)-1]
		r.locals = r.locals[:locals]
		if cl := k.attr("close"); cl != "" {
			r.add(b, mbWord(cl, k.line, k.col))
		}
	case "include":
		r.include(k, props, b)
	case "bind":
		// A variable of the statement's own: no SQL here.
		r.locals = append(r.locals, k.attr("name"))
	case "selectKey", "property":
		// A separate key query, an include's argument: no SQL here.
	default:
		r.children(k, props, b)
	}
}

// endsWithBetween reports whether rendered SQL ends with the word BETWEEN.
func endsWithBetween(s []byte) bool {
	s = bytes.TrimRight(s, " \t\r\n")
	const w = "BETWEEN"
	return len(s) >= len(w) && strings.EqualFold(string(s[len(s)-len(w):]), w) &&
		(len(s) == len(w) || !mbIdentByte(s[len(s)-len(w)-1]))
}

func (r *mbRender) choose(k *mbNode, props map[string]string, b *mbBuf) {
	r.optional = true
	known := false
	for _, c := range r.chooses {
		known = known || c == k
	}
	// The <choose> of an Example where clause picks how the caller's
	// criterion is written; every <when> renders the same neutral predicate,
	// so its variants are not worth the statement's variant budget.
	if !known && r.exampleWhere == 0 {
		r.chooses = append(r.chooses, k)
	}
	var otherwise *mbNode
	for _, c := range k.kids {
		if c.name == "otherwise" {
			otherwise = c
			break
		}
	}
	whens := mbWhens(k)
	test := r.test
	switch i := r.pick[k]; {
	case !r.absent && i < len(whens):
		r.test = whens[i].attr("test")
		r.children(whens[i], props, b)
	case otherwise != nil:
		r.test = ""
		r.children(otherwise, props, b)
	}
	r.test = test
}

// mbTrim is the behaviour of a <trim>, <where> or <set>.
type mbTrim struct {
	prefix, suffix       string
	hasPrefix, hasSuffix bool
	prefixOv, suffixOv   []string // upper case
}

// mbOverrides splits a prefixOverrides/suffixOverrides attribute as MyBatis
// does: on "|", dropping empty tokens, upper case, blanks kept.
func mbOverrides(attr string) []string {
	var out []string
	for _, tok := range strings.Split(attr, "|") {
		if tok != "" {
			out = append(out, string(mbUpperASCII([]byte(tok))))
		}
	}
	return out
}

// trim renders k's content and applies t to it as MyBatis's TrimSqlNode: the
// content is trimmed; when something is left, the first matching prefix
// override is cut and the prefix added, then the same at the end.
func (r *mbRender) trim(k *mbNode, props map[string]string, b *mbBuf, t mbTrim) {
	sub := mbBuf{}
	absent, optional := r.absent, r.optional
	r.absent = absent && !r.keep[k]
	r.optional = false
	r.children(k, props, &sub)
	conditional := r.optional
	r.absent, r.optional = absent, optional || conditional
	a, z := mbJavaTrim(sub.t.s)
	body := sub.t.slice(a, z)
	if len(body.s) == 0 && r.absent && !r.keep[k] && conditional && k.name != "where" &&
		!strings.EqualFold(strings.TrimSpace(t.prefix), "WHERE") {
		// A WHERE may vanish; a SET list, a column list or a VALUES list may not.
		r.emptied = append(r.emptied, k)
	}
	if len(body.s) > 0 {
		upper := mbUpperASCII(body.s)
		for _, ov := range t.prefixOv {
			if bytes.HasPrefix(upper, []byte(ov)) {
				body = body.slice(len(strings.TrimSpace(ov)), len(body.s))
				break
			}
		}
		if t.hasPrefix {
			w := mbWord(t.prefix+" ", k.line, k.col)
			w.add(body)
			body = w
		}
		for _, ov := range t.suffixOv {
			cut := strings.TrimSpace(ov)
			if bytes.HasSuffix(upper, []byte(ov)) || bytes.HasSuffix(upper, []byte(cut)) {
				body = body.slice(0, len(body.s)-len(cut))
				break
			}
		}
		if t.hasSuffix {
			body.add(mbWord(" "+t.suffix, k.line, k.col))
		}
	}
	r.add(b, body)
}

// include renders the <sql> element that k's refid names, with k's
// <property> children bound for its ${…}.
func (r *mbRender) include(k *mbNode, props map[string]string, b *mbBuf) {
	refid, ok := mbSubstitute(k.attr("refid"), props)
	if !ok {
		r.fail(mbTooLarge, k.line, k.col)
		return
	}
	target := r.m.sqls[r.m.qualify(refid)]
	if target == nil {
		r.fail(`include refid="`+refid+`" not found`, k.line, k.col)
		return
	}
	if target.tooDeep {
		r.fail(mbTooDeep, k.line, k.col)
		return
	}
	for _, s := range r.including {
		if s == target {
			r.fail(`include refid="`+refid+`" includes itself`, k.line, k.col)
			return
		}
	}
	inner := make(map[string]string, len(props))
	for name, v := range props {
		inner[name] = v
	}
	for _, p := range k.kids {
		if p.name == "property" {
			v, ok := mbSubstitute(p.attr("value"), props)
			if !ok || !r.spend(len(v), 0) {
				r.fail(mbTooLarge, k.line, k.col)
				return
			}
			inner[p.attr("name")] = v
		}
	}
	r.including = append(r.including, target)
	example := r.m.isExampleWhere(target)
	if example {
		r.exampleWhere++
	}
	r.children(target, inner, b)
	if example {
		r.exampleWhere--
	}
	r.including = r.including[:len(r.including)-1]
}

// mbSubstitute replaces the ${name} of s bound in props, leaving the others.
// ok is false when the result would exceed mbMaxBytes: property values that
// repeat themselves grow exponentially down a chain of includes.
func mbSubstitute(s string, props map[string]string) (_ string, ok bool) {
	if len(props) == 0 || !strings.Contains(s, "${") {
		return s, true
	}
	var sb strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+2:], '}')
		if j < 0 {
			break
		}
		j += i + 2
		sb.WriteString(s[:i])
		if v, bound := props[s[i+2:j]]; bound {
			sb.WriteString(v)
		} else {
			sb.WriteString(s[i : j+1])
		}
		s = s[j+1:]
		if sb.Len() > mbMaxBytes {
			return "", false
		}
	}
	sb.WriteString(s)
	return sb.String(), sb.Len() <= mbMaxBytes
}

// text renders a text node: #{…} becomes ?, ${name} bound by an include's
// property becomes its value, and any other ${…} becomes ? and is recorded.
func (r *mbRender) text(t mbText, props map[string]string) mbText {
	var out mbText
	i := 0
	for i < len(t.s) {
		k := mbNextPlaceholder(t.s, i)
		if k < 0 {
			break
		}
		end := mbPlaceholderEnd(t.s, k)
		if end < 0 {
			break
		}
		out.add(t.slice(i, k))
		line, col := t.posAt(k)
		expr := string(t.s[k+2 : end])
		i = end + 1
		if t.s[k] == '#' {
			bound := mbBound(t.s, k, end)
			if bound == "?" {
				r.binds = append(r.binds, r.bindName(expr))
			}
			out.add(mbWord(bound, line, col))
			continue
		}
		if v, ok := props[expr]; ok {
			// The value was text of the mapper: it may hold placeholders itself.
			out.add(r.text(mbWord(v, line, col), nil))
			continue
		}
		text, d := r.substitution(strings.TrimSpace(expr))
		r.unbound(text)
		out.add(mbWord(text, line, col))
		if d != nil {
			d.Line, d.Col = line, col
			r.addDollar(*d)
		}
	}
	out.add(t.slice(i, len(t.s)))
	return out
}

func (r *mbRender) addDollar(d stmt.Dollar) {
	for _, o := range r.dollar {
		if o == d {
			return
		}
	}
	r.dollar = append(r.dollar, d)
}

// mbHoldsSetKeyword reports whether <if> k opens with the SET keyword of an
// UPDATE: its first text that is not blank starts with the word SET.
func mbHoldsSetKeyword(k *mbNode) bool {
	for _, c := range k.kids {
		if c.name != "" {
			return false
		}
		if len(bytes.TrimSpace(c.text.s)) > 0 {
			return sqlparse.FirstWord(string(c.text.s)) == "SET"
		}
	}
	return false
}
