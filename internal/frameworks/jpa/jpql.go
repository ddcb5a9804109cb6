package jpa

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

// Mapping is an entity as the database sees it: its table and the column
// of each persistent field, its own and those it inherits, under the naming
// strategy of the run (guard lint resolves it from every file's entities).
type Mapping struct {
	Entity *Entity
	Table  string
	// Fields maps a field name to its mapping.
	Fields map[string]MappedField
	// Version is the @Version field, empty when the entity has none.
	Version string
	// Mutations are the assignments to its fields that the methods of its
	// class and its mapped superclasses make, the nearest class's first.
	Mutations []Mutation
	// DynamicUpdate is set when the class or a mapped superclass says
	// @DynamicUpdate.
	DynamicUpdate bool
}

// MappedField is a persistent field with its column.
type MappedField struct {
	Field
	// Column is the column the field maps to; for a to-one association the
	// join column; empty when guard cannot name it (an embedded object, a
	// to-many association, a join column to an entity it does not know).
	Column string
	// TargetID is the @Id field of a to-one association's entity, so that
	// o.customer.id names the join column.
	TargetID string
}

// Resolver returns the mapping of the entity a JPQL statement names, or
// nil and why it has none.
type Resolver func(entity string) (*Mapping, string)

// Render renders q, a JPQL @Query of a method of repository repo (in file
// path), as the MySQL statement Hibernate sends: entity names become their
// tables, alias.field paths their columns, parameters `?`. A statement guard
// cannot render is an Unchecked fragment saying why.
func Render(q *Query, path string, repo *Repository, resolve Resolver) *stmt.Fragment {
	fr := &stmt.Fragment{
		File: path, Lang: stmt.LangJava, Line: q.Line, EndLine: q.EndLine, Col: q.Col,
		ID: q.Method, Namespace: repo.Interface, Builder: stmt.BuilderJPQL,
	}
	if q.Unchecked != "" {
		fr.Unchecked = q.Unchecked
		return fr
	}
	r := &jpqlRender{resolve: resolve, domain: repo.Entity}
	text, why := r.render(q.JPQL)
	if why != "" {
		fr.Unchecked = "JPQL not rendered: " + why
		return fr
	}
	// The statement stands at the annotation: its first byte is placed there.
	if len(text) > 0 {
		text[0].Line, text[0].Col = q.Line, q.Col
	}
	fr.SQL, fr.Segments = text.Segments()
	fr.Exec = q.Exec()
	return fr
}

// jpqlKind is the kind of a JPQL token.
type jpqlKind uint8

const (
	jpqlSpace jpqlKind = iota
	jpqlIdent
	jpqlNumber
	jpqlString
	jpqlParam
	jpqlOp
)

// jpqlToken is one token of a JPQL text: the bytes [s, e) of it.
type jpqlToken struct {
	kind jpqlKind
	s, e int
	text string
}

// jpqlLex cuts t into tokens; a SpEL #{#entityName} is an identifier
// holding domain, other SpEL expressions (:#{…}, ?#{…}) are parameters.
func jpqlLex(t java.Text) ([]jpqlToken, string) {
	s := t.String()
	var out []jpqlToken
	identStart := func(c byte) bool {
		return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	identPart := func(c byte) bool { return identStart(c) || c >= '0' && c <= '9' }
	for i := 0; i < len(s); {
		c := s[i]
		j := i + 1
		kind := jpqlOp
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			kind = jpqlSpace
			for j < len(s) && strings.IndexByte(" \t\n\r\f", s[j]) >= 0 {
				j++
			}
		case identStart(c):
			kind = jpqlIdent
			for j < len(s) && identPart(s[j]) {
				j++
			}
		case c >= '0' && c <= '9':
			kind = jpqlNumber
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
		case c == '\'':
			kind = jpqlString
			for {
				k := strings.IndexByte(s[j:], '\'')
				if k < 0 {
					return nil, "a string literal that does not end"
				}
				j += k + 1
				if j < len(s) && s[j] == '\'' {
					j++
					continue
				}
				break
			}
		case (c == ':' || c == '?' || c == '#') && j < len(s) && s[j] == '#' || c == '#' && j < len(s) && s[j] == '{':
			// SpEL: :#{…}, ?#{…}, #{#entityName}.
			k := strings.IndexByte(s[i:], '}')
			if k < 0 {
				return nil, "a SpEL expression that does not end"
			}
			j = i + k + 1
			kind = jpqlParam
			if c == '#' {
				if strings.TrimSpace(s[i+2:j-1]) != "#entityName" {
					return nil, "SpEL " + s[i:j] + " in the statement text"
				}
				kind = jpqlIdent
			}
		case c == ':' && j < len(s) && identStart(s[j]):
			kind = jpqlParam
			for j < len(s) && identPart(s[j]) {
				j++
			}
		case c == '?':
			kind = jpqlParam
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
		case j < len(s) && (s[i:j+1] == "<>" || s[i:j+1] == "<=" || s[i:j+1] == ">=" || s[i:j+1] == "!=" || s[i:j+1] == "||"):
			j++
		}
		out = append(out, jpqlToken{kind: kind, s: i, e: j, text: s[i:j]})
		i = j
	}
	return out, ""
}

// jpqlKeywords are the words JPQL shares with MySQL: they pass as written.
var jpqlKeywords = map[string]bool{
	"SELECT": true, "FROM": true, "WHERE": true, "AND": true, "OR": true, "NOT": true, "IN": true, "IS": true,
	"NULL": true, "BETWEEN": true, "LIKE": true, "ESCAPE": true, "TRUE": true, "FALSE": true, "CASE": true,
	"WHEN": true, "THEN": true, "ELSE": true, "END": true, "SET": true, "AS": true, "DISTINCT": true,
	"EXISTS": true, "ALL": true, "ANY": true, "SOME": true, "UPDATE": true, "DELETE": true, "COUNT": true,
	"MAX": true, "MIN": true, "SUM": true, "AVG": true, "ABS": true, "MOD": true, "SQRT": true, "CONCAT": true,
	"SUBSTRING": true, "TRIM": true, "LOWER": true, "UPPER": true, "LENGTH": true, "LOCATE": true,
	"COALESCE": true, "NULLIF": true, "CURRENT_DATE": true, "CURRENT_TIME": true, "CURRENT_TIMESTAMP": true,
	"LEADING": true, "TRAILING": true, "BOTH": true, "GROUP": true, "BY": true, "HAVING": true, "ORDER": true,
	"ASC": true, "DESC": true,
}

// jpqlForeign are JPQL constructs with no one-statement MySQL form.
var jpqlForeign = map[string]bool{
	"MEMBER": true, "EMPTY": true, "SIZE": true, "TYPE": true, "KEY": true, "VALUE": true, "ENTRY": true,
	"INDEX": true, "TREAT": true, "NEW": true, "OBJECT": true, "FUNCTION": true, "JOIN": true, "FETCH": true,
	"ELEMENTS": true, "VERSIONED": true, "INSERT": true,
}

// jpqlRender renders one JPQL statement.
type jpqlRender struct {
	resolve Resolver
	domain  string // the repository's domain type, for #{#entityName}
	text    java.Text
	toks    []jpqlToken
	// aliases maps an identification variable (upper case) to its entity.
	aliases map[string]*Mapping
	// root is the entity the statement writes.
	root *Mapping
	// entityAt marks the tokens that name an entity, with its mapping.
	entityAt map[int]*Mapping
}

// render returns the MySQL text of the JPQL text t, or why it has none.
func (r *jpqlRender) render(t java.Text) (java.Text, string) {
	toks, why := jpqlLex(t)
	if why != "" {
		return nil, why
	}
	r.text, r.toks = t, toks
	r.aliases, r.entityAt = map[string]*Mapping{}, map[int]*Mapping{}
	words := r.words()
	if len(words) == 0 {
		return nil, "an empty statement"
	}
	verb := strings.ToUpper(r.toks[words[0]].text)
	switch verb {
	case "UPDATE", "DELETE":
	default:
		return nil, "JPQL " + verb + " is not an UPDATE or DELETE"
	}
	// The entity written, then every FROM of a subquery.
	at := 1
	if verb == "DELETE" && at < len(words) && strings.EqualFold(r.toks[words[at]].text, "FROM") {
		at++
	}
	if at >= len(words) {
		return nil, "no entity after " + verb
	}
	m, next, why := r.entityRef(words, at)
	if why != "" {
		return nil, why
	}
	r.root = m
	for k := next; k < len(words); k++ {
		if strings.EqualFold(r.toks[words[k]].text, "FROM") {
			for {
				_, n, why := r.entityRef(words, k+1)
				if why != "" {
					return nil, why
				}
				k = n
				if k >= len(words) || r.toks[words[k]].text != "," {
					break
				}
			}
		}
	}
	return r.emit()
}

// words returns the indexes of the tokens that are not white space.
func (r *jpqlRender) words() []int {
	var out []int
	for i, t := range r.toks {
		if t.kind != jpqlSpace {
			out = append(out, i)
		}
	}
	return out
}

// entityRef reads `Entity [AS] alias` at words[k] and returns the index
// of the word after it.
func (r *jpqlRender) entityRef(words []int, k int) (*Mapping, int, string) {
	if k >= len(words) || r.toks[words[k]].kind != jpqlIdent {
		return nil, k, "no entity name where one belongs"
	}
	name := r.toks[words[k]].text
	if strings.HasPrefix(name, "#") {
		if r.domain == "" {
			return nil, k, "#{#entityName} in a repository whose entity guard does not know"
		}
		name = r.domain
	}
	if jpqlForeign[strings.ToUpper(name)] {
		return nil, k, "JPQL " + strings.ToUpper(name)
	}
	if k+1 < len(words) && r.toks[words[k+1]].text == "." {
		return nil, k, "a path " + name + ".… where an entity belongs"
	}
	m, why := r.resolve(name)
	if m == nil {
		return nil, k, why
	}
	r.entityAt[words[k]] = m
	k++
	if k < len(words) && strings.EqualFold(r.toks[words[k]].text, "AS") {
		k++
	}
	if k < len(words) && r.toks[words[k]].kind == jpqlIdent {
		alias := strings.ToUpper(r.toks[words[k]].text)
		if !jpqlKeywords[alias] && !jpqlForeign[alias] {
			if prev, ok := r.aliases[alias]; ok && prev != m {
				return nil, k, "alias " + r.toks[words[k]].text + " names two entities"
			}
			r.aliases[alias] = m
			k++
		}
	}
	return m, k, ""
}

// emit writes the MySQL text.
func (r *jpqlRender) emit() (java.Text, string) {
	var out java.Text
	toks := r.toks
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case jpqlSpace, jpqlString:
			out = append(out, r.text[t.s:t.e]...)
		case jpqlParam:
			out = append(out, r.at(t, "?")...)
		case jpqlNumber:
			out = append(out, r.text[t.s:t.e]...)
			// 10L, 2.5D: Java suffixes JPQL allows and MySQL does not.
			if i+1 < len(toks) && toks[i+1].kind == jpqlIdent && len(toks[i+1].text) == 1 && strings.ContainsAny(toks[i+1].text, "lLdDfF") {
				i++
			}
		case jpqlOp:
			switch t.text {
			case "||":
				return nil, "JPQL || (string concatenation)"
			case "%":
				continue // Spring Data's LIKE shorthand %:name%: the parameter carries the wildcards
			}
			out = append(out, r.text[t.s:t.e]...)
		case jpqlIdent:
			if m, ok := r.entityAt[i]; ok {
				out = append(out, r.at(t, "`"+m.Table+"`")...)
				continue
			}
			// A path: ident(.ident)*, written without spaces.
			j := i
			path := []string{t.text}
			for j+2 < len(toks) && toks[j+1].text == "." && toks[j+2].kind == jpqlIdent {
				path = append(path, toks[j+2].text)
				j += 2
			}
			text, why := r.path(path, j+1 < len(toks) && toks[j+1].text == "(")
			if why != "" {
				return nil, why
			}
			out = append(out, r.at(t, text)...)
			i = j
		}
	}
	// Leading white space of a text block stands before the statement.
	for len(out) > 0 && strings.IndexByte(" \t\n\r\f", out[0].B) >= 0 {
		out = out[1:]
	}
	return out, ""
}

// path renders a name or a dotted path; call tells that a '(' follows it.
func (r *jpqlRender) path(path []string, call bool) (string, string) {
	first := strings.ToUpper(path[0])
	if len(path) == 1 {
		switch {
		case jpqlForeign[first]:
			return "", "JPQL " + first
		case jpqlKeywords[first] || call:
			if call && !jpqlKeywords[first] {
				return "", "JPQL function " + path[0] + "()"
			}
			return path[0], ""
		case r.aliases[first] != nil:
			return path[0], "" // the entity itself: o = :order compares ids; rare in writes
		}
		if f, ok := r.root.Fields[path[0]]; ok {
			return r.column(r.root, f, nil, path[0])
		}
		return "", "JPQL name " + path[0] + " is neither an alias nor a field of " + r.root.Entity.Name
	}
	if m := r.aliases[first]; m != nil {
		f, ok := m.Fields[path[1]]
		if !ok {
			return "", "JPQL path " + strings.Join(path, ".") + ": " + m.Entity.Name + " has no persistent field " + path[1]
		}
		col, why := r.column(m, f, path[2:], strings.Join(path, "."))
		if why != "" {
			return "", why
		}
		return path[0] + "." + col, ""
	}
	if c := path[0][0]; c >= 'A' && c <= 'Z' || len(path) >= 3 {
		// A Java constant: com.x.OrderStatus.PAID, OrderStatus.PAID.
		last := path[len(path)-1]
		if hostcode.ConstantName(last) || len(path) >= 3 {
			return "?", ""
		}
	}
	return "", "JPQL path " + strings.Join(path, ".") + " starts with no alias of the statement"
}

// column names the column of field f of m, reached by the rest of a path.
func (r *jpqlRender) column(m *Mapping, f MappedField, rest []string, written string) (string, string) {
	switch {
	case f.ToMany:
		return "", "JPQL path " + written + " through a to-many association"
	case f.Embedded:
		return "", "JPQL path " + written + " into an embedded object"
	case f.Relation && len(rest) == 1 && rest[0] == f.TargetID || f.Relation && len(rest) == 0:
	case len(rest) > 0:
		return "", "JPQL path " + written + " navigates an association"
	}
	if f.Column == "" {
		return "", "JPQL path " + written + ": guard cannot name the column of " + m.Entity.Name + "." + f.Name
	}
	return "`" + f.Column + "`", ""
}

// at returns s as text placed at token t: byte k at t's column plus k.
func (r *jpqlRender) at(t jpqlToken, s string) java.Text {
	p := r.text[t.s]
	out := make(java.Text, len(s))
	for k := 0; k < len(s); k++ {
		out[k] = java.Char{B: s[k], Line: p.Line, Col: p.Col + k}
	}
	return out
}
