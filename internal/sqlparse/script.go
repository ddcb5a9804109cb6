package sqlparse

import "strings"

// A migration file run by golang-migrate reaches the server as one
// multi-statement text with no DELIMITER command: the server itself knows
// that the semicolons inside a trigger's BEGIN … END belong to the trigger.
// Split does not, so SplitScript glues such a statement back together. The
// TiDB parser does not read triggers either; ReadProgram reads what guard
// needs of their header.

// SplitScript cuts text into statements like Split, except that a stored
// program (CREATE TRIGGER, PROCEDURE, FUNCTION or EVENT, or MariaDB's
// BEGIN NOT ATOMIC block) is one piece up to the END that closes its body,
// semicolons inside the body included.
func SplitScript(text string) []Piece {
	pieces := Split(text)
	var out []Piece
	for i := 0; i < len(pieces); i++ {
		p := pieces[i]
		if !mayOpenProgram(p.Text) {
			out = append(out, p)
			continue
		}
		toks := scriptTokens(p.Text)
		if !opensProgram(toks) {
			out = append(out, p)
			continue
		}
		var bc blockCounter
		bc.feed(toks, true)
		j := i
		for bc.depth > 0 && j+1 < len(pieces) {
			j++
			bc.feed(scriptTokens(pieces[j].Text), false)
		}
		end := pieces[j].Offset + len(pieces[j].Text)
		out = append(out, Piece{Text: text[p.Offset:end], Offset: p.Offset})
		i = j
	}
	return out
}

// mayOpenProgram is a cheap test on the first word — CREATE or BEGIN, also
// inside an executable comment — that spares tokenizing every other statement.
func mayOpenProgram(s string) bool {
	if strings.HasPrefix(s, "/*!") {
		s = strings.TrimLeft(s[3:], "0123456789 \t\r\n")
	}
	end := 0
	for end < len(s) && (s[end]|0x20 >= 'a' && s[end]|0x20 <= 'z') {
		end++
	}
	w := s[:end]
	return strings.EqualFold(w, "CREATE") || strings.EqualFold(w, "BEGIN")
}

// token is a word, a quoted name or a punctuation mark of a statement.
// Strings and comments are not tokens.
type token struct {
	text   string // as written for words and punctuation; unquoted for quoted names
	word   bool   // an unquoted word: a keyword or a plain name
	quoted bool   // a backtick-quoted name
	end    int    // the offset in the statement right after the token
}

// upper returns the word in upper case, or "" for anything but a word.
func (t token) upper() string {
	if !t.word {
		return ""
	}
	return strings.ToUpper(t.text)
}

// scriptTokens cuts a statement into tokens, stepping over strings, comments
// and the markers of executable comments (/*!50003 … */), whose content is SQL.
func scriptTokens(sql string) []token {
	return leadTokens(nil, sql, -1)
}

// leadTokens appends the first max tokens of sql to toks (all of them when
// max is negative): a reader of a statement's first words does not cut the
// rest, and passes a buffer of its own for them.
func leadTokens(toks []token, sql string, max int) []token {
	n := len(sql)
	exec := 0 // open executable comments
	for i := 0; i < n && len(toks) != max; {
		c := sql[i]
		switch {
		case isSpace(c):
			i++
		case c == '#':
			i = skipLine(sql, i)
		case c == '-' && i+1 < n && sql[i+1] == '-' && (i+2 == n || isSpace(sql[i+2])):
			i = skipLine(sql, i)
		case c == '/' && i+2 < n && sql[i+1] == '*' && sql[i+2] == '!':
			i += 3
			for i < n && sql[i] >= '0' && sql[i] <= '9' {
				i++
			}
			exec++
		case c == '/' && i+1 < n && sql[i+1] == '*':
			i = skipBlockComment(sql, i)
		case c == '*' && exec > 0 && i+1 < n && sql[i+1] == '/':
			exec--
			i += 2
		case c == '\'' || c == '"':
			i = skipQuoted(sql, i)
		case c == '`':
			end := skipQuoted(sql, i)
			body := sql[i+1 : end]
			if strings.HasSuffix(body, "`") {
				body = body[:len(body)-1]
			}
			toks = append(toks, token{text: strings.ReplaceAll(body, "``", "`"), quoted: true, end: end})
			i = end
		case NameByte(c):
			j := i + 1
			for j < n && NameByte(sql[j]) {
				j++
			}
			toks = append(toks, token{text: sql[i:j], word: true, end: j})
			i = j
		case c == ':' && i+1 < n && sql[i+1] == '=':
			toks = append(toks, token{text: ":=", end: i + 2})
			i += 2
		default:
			toks = append(toks, token{text: sql[i : i+1], end: i + 1})
			i++
		}
	}
	return toks
}

// thenFollows reports whether toks, the tokens after an IF in a header,
// are the condition of an IF statement: not [NOT] EXISTS, and a THEN comes
// before any other IF.
func thenFollows(toks []token) bool {
	if len(toks) > 0 && (toks[0].upper() == "NOT" || toks[0].upper() == "EXISTS") {
		return false
	}
	for _, t := range toks {
		switch t.upper() {
		case "THEN":
			return true
		case "IF":
			return false
		}
	}
	return false
}

// programKinds are the objects whose body may hold statements of its own.
var programKinds = map[string]bool{"TRIGGER": true, "PROCEDURE": true, "FUNCTION": true, "EVENT": true}

// opensProgram reports whether a statement creates a stored program, whose
// body may hold semicolons, or is an anonymous BEGIN NOT ATOMIC block.
func opensProgram(toks []token) bool {
	if len(toks) >= 3 && toks[0].upper() == "BEGIN" && toks[1].upper() == "NOT" && toks[2].upper() == "ATOMIC" {
		return true
	}
	h, ok := readHeader(toks)
	return ok && h.verb == "CREATE" && programKinds[h.kind]
}

// blockCounter follows the nesting of compound statements in a program
// body: BEGIN … END, CASE … END [CASE], and IF, LOOP, WHILE and REPEAT
// statements, which end with END IF, END LOOP, END WHILE and END REPEAT.
// IF and REPEAT are also functions, so they open a block only where a
// statement starts.
type blockCounter struct {
	depth   int
	atStart bool // the next token starts a statement
	header  bool // still in the CREATE … header, before the body
	lastEnd bool // the previous token was END
}

// feed counts the tokens of one piece. first is true for the piece that
// holds the CREATE header; every later piece follows a semicolon.
func (b *blockCounter) feed(toks []token, first bool) {
	if first {
		b.header = true
	} else {
		b.atStart = true
	}
	for i, t := range toks {
		w := t.upper()
		if b.lastEnd {
			b.lastEnd = false
			switch w {
			case "IF", "CASE", "LOOP", "WHILE", "REPEAT":
				b.atStart = false
				continue
			}
		}
		start := b.atStart
		b.atStart = false
		switch w {
		case "BEGIN":
			b.depth++
			b.header = false
			b.atStart = true
		case "CASE":
			b.depth++
		case "IF":
			// In the header IF is IF [NOT] EXISTS, or a function in a body
			// of one statement, or an IF statement: the one with a THEN.
			if start || (b.header && thenFollows(toks[i+1:])) {
				b.depth++
				b.header = false
				b.atStart = true
			}
		case "LOOP", "WHILE", "REPEAT":
			// REPEAT( is the string function.
			if (start || b.header) && !(i+1 < len(toks) && toks[i+1].text == "(") {
				b.depth++
				b.header = false
			}
		case "END":
			b.depth--
			b.lastEnd = true
		case "THEN", "ELSE", "DO", "ROW":
			b.atStart = true
		}
		switch t.text {
		case ";":
			b.atStart = true
		case ":":
			// After a label, its statement starts.
			b.atStart = true
		}
	}
}

// Program is the header of a statement that creates, alters or drops a
// trigger, stored procedure, stored function, event or view: statements the
// parser does not read (triggers) or whose body guard does not look into.
type Program struct {
	// Verb is CREATE, ALTER or DROP.
	Verb string
	// Kind is TRIGGER, PROCEDURE, FUNCTION, EVENT or VIEW.
	Kind string
	// Schema and Name name the object, Schema empty when not given.
	Schema, Name string
	// Timing (BEFORE, AFTER), Event (INSERT, UPDATE, DELETE) and Table
	// (with TableSchema) are set for CREATE TRIGGER.
	Timing, Event      string
	TableSchema, Table string
}

// ReadProgram reads the header of a statement that creates, alters or drops
// a trigger, routine, event or view. ok is false for any other statement and
// for a header it cannot read.
func ReadProgram(sql string) (Program, bool) {
	h, ok := readHeader(scriptTokens(sql))
	if !ok {
		return Program{}, false
	}
	return h.Program, true
}

type header struct {
	Program
	verb, kind string
}

// readHeader reads CREATE [OR REPLACE] [DEFINER = user] [SQL SECURITY x]
// [AGGREGATE] [ALGORITHM = x] KIND [IF NOT EXISTS] name …, and the same
// forms with ALTER and DROP.
func readHeader(toks []token) (header, bool) {
	var h header
	if len(toks) < 3 {
		return h, false
	}
	h.verb = toks[0].upper()
	switch h.verb {
	case "CREATE", "ALTER", "DROP":
	default:
		return h, false
	}
	i := 1
	for i < len(toks) && h.kind == "" {
		w := toks[i].upper()
		switch w {
		case "TRIGGER", "PROCEDURE", "FUNCTION", "EVENT", "VIEW":
			h.kind = w
			i++
		case "OR", "REPLACE", "AGGREGATE", "SQL", "SECURITY", "INVOKER", "DEFINER", "ALGORITHM",
			"UNDEFINED", "MERGE", "TEMPTABLE":
			i++
			if i < len(toks) && toks[i].text == "=" {
				i = skipValue(toks, i+1)
			}
		default:
			return h, false
		}
	}
	if h.kind == "" {
		return h, false
	}
	if i < len(toks) && toks[i].upper() == "IF" {
		i++
		if i < len(toks) && toks[i].upper() == "NOT" {
			i++
		}
		if i >= len(toks) || toks[i].upper() != "EXISTS" {
			return h, false
		}
		i++
	}
	var ok bool
	if h.Schema, h.Name, i, ok = readName(toks, i); !ok {
		return h, false
	}
	h.Verb, h.Kind = h.verb, h.kind
	if h.verb != "CREATE" || h.kind != "TRIGGER" {
		return h, true
	}
	if i+2 >= len(toks) {
		return h, false
	}
	h.Timing, h.Event = toks[i].upper(), toks[i+1].upper()
	if (h.Timing != "BEFORE" && h.Timing != "AFTER") ||
		(h.Event != "INSERT" && h.Event != "UPDATE" && h.Event != "DELETE") || toks[i+2].upper() != "ON" {
		return h, false
	}
	if h.TableSchema, h.Table, _, ok = readName(toks, i+3); !ok {
		return h, false
	}
	return h, true
}

// skipValue steps over the value of DEFINER = or ALGORITHM = at i: a word,
// or a user (name, name@host, 'name'@'host', CURRENT_USER, CURRENT_USER()).
// Quoted strings are no tokens, so 'name'@'host' leaves only the @.
func skipValue(toks []token, i int) int {
	isName := func(k int) bool { return k < len(toks) && (toks[k].word || toks[k].quoted) }
	if isName(i) {
		i++
	}
	if i < len(toks) && toks[i].text == "@" {
		i++
		if isName(i) && !headerWords[toks[i].upper()] {
			i++
		}
	}
	if i+1 < len(toks) && toks[i].text == "(" && toks[i+1].text == ")" {
		i += 2
	}
	return i
}

// headerWords are the keywords that may follow a DEFINER in a header.
var headerWords = map[string]bool{
	"TRIGGER": true, "PROCEDURE": true, "FUNCTION": true, "EVENT": true, "VIEW": true,
	"SQL": true, "AGGREGATE": true, "ALGORITHM": true,
}

// readName reads name or schema.name at i.
func readName(toks []token, i int) (schema, name string, next int, ok bool) {
	isName := func(k int) bool { return k < len(toks) && (toks[k].word || toks[k].quoted) }
	if !isName(i) {
		return "", "", i, false
	}
	if i+2 < len(toks) && toks[i+1].text == "." && isName(i+2) {
		return toks[i].text, toks[i+2].text, i + 3, true
	}
	return "", toks[i].text, i + 1, true
}

// IsSetPersist reports whether a statement is SET PERSIST or SET
// PERSIST_ONLY (MySQL 8), which the parser does not read.
func IsSetPersist(sql string) bool {
	var buf [4]token
	toks := leadTokens(buf[:0], sql, len(buf))
	if len(toks) < 2 || toks[0].upper() != "SET" {
		return false
	}
	w := toks[1].upper()
	if toks[1].text == "@" && len(toks) >= 4 && toks[2].text == "@" {
		w = toks[3].upper()
	}
	return w == "PERSIST" || w == "PERSIST_ONLY"
}
