package sqlparse

import "strings"

// Stored programs (triggers, procedures, functions, events) hold statements
// of their own, each ending with ";": a trigger body such as
//
//	IF NEW.qty < 0 THEN SIGNAL SQLSTATE '45000'; END IF
//
// is one statement to the server, and golang-migrate sends a file to the
// server whole, so migration files hold such programs without a DELIMITER
// line. Split keeps a ";" inside a program's open BEGIN…END, IF…END IF,
// CASE…END, LOOP, WHILE, REPEAT or FOR block in the statement. The blocks
// are found from keywords alone, reading the tokens once.

// token is a word, a quoted string or name, or one punctuation byte.
type token struct {
	kind tokenKind
	// text is the token as written; words are upper-cased.
	text string
	// pos is the offset of the token in the text it was read from.
	pos int
}

type tokenKind int

const (
	tokenNone tokenKind = iota
	tokenWord
	tokenQuoted
	tokenPunct
)

// nextToken returns the token at or after offset i of text, skipping blanks
// and comments the way Split does, and the offset just past it; kind is
// tokenNone at the end of text. Executable comments are skipped whole.
func nextToken(text string, i int) (token, int) {
	n := len(text)
	for i < n {
		c := text[i]
		switch {
		case isSpace(c):
			i++
		case c == '#':
			i = skipLine(text, i)
		case c == '-' && i+1 < n && text[i+1] == '-' && (i+2 == n || isSpace(text[i+2])):
			i = skipLine(text, i)
		case c == '/' && i+1 < n && text[i+1] == '*':
			i = skipBlockComment(text, i)
		case c == '\'' || c == '"' || c == '`':
			end := skipQuoted(text, i)
			return token{kind: tokenQuoted, text: text[i:end], pos: i}, end
		case isWordByte(c):
			end := i
			for end < n && isWordByte(text[end]) {
				end++
			}
			return token{kind: tokenWord, text: strings.ToUpper(text[i:end]), pos: i}, end
		default:
			return token{kind: tokenPunct, text: text[i : i+1], pos: i}, i + 1
		}
	}
	return token{}, n
}

// isWordByte reports whether c can be part of an unquoted word or name;
// bytes of multi-byte UTF-8 characters are.
func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' || c >= 0x80
}

// programKinds are the objects whose definitions hold statements.
var programKinds = map[string]bool{"TRIGGER": true, "PROCEDURE": true, "FUNCTION": true, "EVENT": true}

// notPrograms end the search for a program kind among the leading words.
var notPrograms = map[string]bool{
	"TABLE": true, "INDEX": true, "VIEW": true, "DATABASE": true, "SCHEMA": true,
	"USER": true, "ROLE": true, "SEQUENCE": true, "SERVER": true, "TABLESPACE": true,
}

// ifClauseAfter lists the words after which IF starts an IF [NOT] EXISTS
// clause of a DDL statement rather than an IF statement.
var ifClauseAfter = map[string]bool{
	"TABLE": true, "TABLES": true, "VIEW": true, "INDEX": true, "KEY": true, "COLUMN": true,
	"TRIGGER": true, "PROCEDURE": true, "FUNCTION": true, "EVENT": true, "DATABASE": true,
	"SCHEMA": true, "CONSTRAINT": true, "PARTITION": true, "USER": true, "ROLE": true,
	"SEQUENCE": true, "SERVER": true, "MODIFY": true, "CHANGE": true, "DROP": true, "CHECK": true,
	"FOREIGN": true, "PACKAGE": true, "BODY": true,
}

// statementStart lists the words after which a statement of a program body
// begins, for the keywords (FOR) that open a block only there.
var statementStart = map[string]bool{"BEGIN": true, "THEN": true, "ELSE": true, "DO": true, "LOOP": true, "REPEAT": true}

// blockScanner follows the blocks of one statement as Split reads it.
type blockScanner struct {
	// start is the offset of the statement, pos how far it has been read.
	start, pos int
	// words counts the leading words read while the kind is undecided.
	words int
	// program is set once the statement is known to define a program,
	// decided once it is known either way.
	program, decided bool
	depth            int
	// prev is the previous token.
	prev token
}

// open reads text up to end and reports whether a block of a program is
// open there.
func (b *blockScanner) open(text string, end int) bool {
	for b.pos < end {
		tok, next := nextToken(text[:end], b.pos)
		b.pos = next
		if tok.kind == tokenNone {
			break
		}
		b.take(text, tok, next)
	}
	return b.program && b.depth > 0
}

// take reads one token; next is the offset after it in text.
func (b *blockScanner) take(text string, tok token, next int) {
	defer func() { b.prev = tok }()
	if !b.decided {
		if tok.kind != tokenWord {
			return
		}
		b.words++
		switch {
		case b.words == 1:
			b.decided = tok.text != "CREATE"
		case programKinds[tok.text]:
			b.program, b.decided = true, true
		case notPrograms[tok.text] || b.words > 12:
			b.decided = true
		}
		return
	}
	if !b.program || tok.kind != tokenWord {
		return
	}
	afterEnd := b.prev.kind == tokenWord && b.prev.text == "END"
	switch tok.text {
	case "BEGIN", "CASE", "LOOP", "WHILE":
		if !afterEnd {
			b.depth++
		}
	case "REPEAT":
		// REPEAT(str, n) is a string function.
		if !afterEnd && !followedBy(text, next, '(') {
			b.depth++
		}
	case "FOR":
		// MariaDB's FOR loop starts a statement; FOR EACH ROW and
		// SELECT … FOR UPDATE do not.
		if !afterEnd && (b.prev.text == ";" || b.prev.text == ":" || b.prev.kind == tokenWord && statementStart[b.prev.text]) {
			b.depth++
		}
	case "IF":
		if !afterEnd && b.ifStatement(text, next) {
			b.depth++
		}
	case "END":
		if b.depth > 0 {
			b.depth--
		}
	}
}

// ifStatement tells an IF statement from the IF(a, b, c) function and from
// the IF [NOT] EXISTS clause of DDL inside a program.
func (b *blockScanner) ifStatement(text string, next int) bool {
	if b.prev.kind == tokenWord && ifClauseAfter[b.prev.text] {
		return false
	}
	if !followedBy(text, next, '(') {
		return true
	}
	// IF(cond, a, b) has two commas at the top of its parentheses; the
	// condition of IF (x > 0) THEN has none (or one in a row constructor).
	_, at := nextToken(text, next)
	depth, commas := 1, 0
	for depth > 0 {
		tok, after := nextToken(text, at)
		if tok.kind == tokenNone || at-next > maxIfLookahead {
			return true
		}
		at = after
		switch tok.text {
		case "(":
			depth++
		case ")":
			depth--
		case ",":
			if depth == 1 {
				commas++
			}
		}
	}
	return commas != 2
}

// maxIfLookahead bounds how far ifStatement looks for the end of the
// parentheses after IF, so that splitting stays linear in the text.
const maxIfLookahead = 4096

// followedBy reports whether the next token of text after offset i is the
// punctuation c.
func followedBy(text string, i int, c byte) bool {
	tok, _ := nextToken(text, i)
	return tok.kind == tokenPunct && tok.text[0] == c
}
