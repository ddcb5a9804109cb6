package java

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/hostcode/java/javalit"
)

// javaKind is the kind of a Java token.
type javaKind uint8

const (
	javaIdent   javaKind = iota // identifiers and keywords
	javaString                  // "…" and """…""" literals
	javaCharLit                 // '…' literals
	javaNumber
	javaOp    // operators and punctuation
	javaAnnot // @Name or @a.b.Name; text holds the name without '@'
)

// javaToken is one token of a Java file. Positions are 1-based, columns in bytes.
type javaToken struct {
	kind      javaKind
	text      string
	off, end  int // byte range in the file
	line, col int
	endLine   int   // line of the last byte (text blocks span lines)
	block     *Text // decoded value of a text block (see literal)
}

// literal returns the decoded value of a string or char literal, each
// character at its place in the file. A one-line literal is decoded from
// its text when asked, so that the many nobody asks cost nothing.
func (t *javaToken) literal() Text {
	if t.block != nil {
		return *t.block
	}
	if len(t.text) < 2 {
		return nil
	}
	raw := make(Text, 0, len(t.text)-2)
	for k := 1; k < len(t.text)-1; k++ {
		raw = append(raw, Char{B: t.text[k], Line: t.line, Col: t.col + k})
	}
	return javalit.Unescape(raw)
}

// javaComment is a comment of a Java file.
type javaComment struct {
	text      string // without the comment markers
	block     bool
	line, col int
	endLine   int
}

// javaReadError is why a Java file cannot be read, at the position of the
// construct that broke.
type javaReadError struct {
	msg       string
	line, col int
}

// javaOps lists the operators of more than one byte, longest first. ">>" and
// ">>>" are left out so that nested generics close one '>' at a time.
var javaOps = []string{
	"<<=", "...", "->", "::", "++", "--", "&&", "||", "==", "!=", "<=", ">=",
	"+=", "-=", "*=", "/=", "&=", "|=", "^=", "%=", "<<",
}

type javaLexer struct {
	src       []byte
	i         int
	line      int
	lineStart int
	toks      []javaToken
	comments  []javaComment
}

// lexJava cuts src into tokens and comments. It never panics; a literal or
// comment that does not end is reported as an error with its position.
func lexJava(src []byte) ([]javaToken, []javaComment, *javaReadError) {
	lx := &javaLexer{src: hostcode.LoneCRToLF(src), line: 1}
	// About one token in five bytes of Java: room for most files at once,
	// rather than the copies of a slice grown token by token.
	lx.toks = make([]javaToken, 0, len(src)/5+16)
	// Editors do not count a byte order mark as a column.
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		lx.i, lx.lineStart = 3, 3
	}
	for lx.i < len(src) {
		if err := lx.next(); err != nil {
			return lx.toks, lx.comments, err
		}
	}
	return lx.toks, lx.comments, nil
}

func (lx *javaLexer) col() int { return lx.i - lx.lineStart + 1 }

func (lx *javaLexer) errHere(msg string, line, col int) *javaReadError {
	return &javaReadError{msg: msg, line: line, col: col}
}

// advance moves over src[lx.i:to], counting lines.
func (lx *javaLexer) advance(to int) {
	for ; lx.i < to; lx.i++ {
		if lx.src[lx.i] == '\n' {
			lx.line++
			lx.lineStart = lx.i + 1
		}
	}
}

func (lx *javaLexer) emit(kind javaKind, text string, start, line, col int) *javaToken {
	lx.toks = append(lx.toks, javaToken{kind: kind, text: text, off: start, end: lx.i, line: line, col: col, endLine: lx.line})
	return &lx.toks[len(lx.toks)-1]
}

func (lx *javaLexer) next() *javaReadError {
	src, i := lx.src, lx.i
	c := src[i]
	line, col := lx.line, lx.col()
	switch {
	case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f':
		lx.advance(i + 1)
	case c == '/' && i+1 < len(src) && src[i+1] == '/':
		end := i + 2
		for end < len(src) && src[end] != '\n' {
			end++
		}
		lx.comments = append(lx.comments, javaComment{text: strings.TrimRight(string(src[i+2:end]), "\r"), line: line, col: col, endLine: line})
		lx.advance(end)
	case c == '/' && i+1 < len(src) && src[i+1] == '*':
		k := bytes.Index(src[i+2:], []byte("*/"))
		if k < 0 {
			return lx.errHere("unterminated comment", line, col)
		}
		end := i + 2 + k + 2
		lx.advance(end)
		lx.comments = append(lx.comments, javaComment{text: string(src[i+2 : end-2]), block: true, line: line, col: col, endLine: lx.line})
	case c == '"':
		if i+2 < len(src) && src[i+1] == '"' && src[i+2] == '"' {
			return lx.textBlock()
		}
		return lx.quoted(javaString, '"', "string")
	case c == '\'':
		return lx.quoted(javaCharLit, '\'', "character")
	case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
		lx.number()
		lx.emit(javaNumber, string(src[i:lx.i]), i, line, col)
	case c == '@' && i+1 < len(src) && javaIdentStart(src[i+1:]):
		lx.i++
		name := lx.ident()
		for lx.i+1 < len(src) && src[lx.i] == '.' && javaIdentStart(src[lx.i+1:]) {
			lx.i++
			name += "." + lx.ident()
		}
		lx.emit(javaAnnot, name, i, line, col)
	case javaIdentStart(src[i:]):
		name := lx.ident()
		lx.emit(javaIdent, name, i, line, col)
	default:
		op := ""
		for _, o := range javaOps {
			if bytes.HasPrefix(src[i:], []byte(o)) {
				op = o
				break
			}
		}
		if op == "" {
			_, size := utf8.DecodeRune(src[i:])
			op = string(src[i : i+size])
		}
		lx.i += len(op)
		lx.emit(javaOp, op, i, line, col)
	}
	return nil
}

// javaIdentStart reports whether b starts with a character that may begin a
// Java identifier.
func javaIdentStart(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	c := b[0]
	if c < utf8.RuneSelf {
		return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	r, _ := utf8.DecodeRune(b)
	return r != utf8.RuneError && unicode.IsLetter(r)
}

func (lx *javaLexer) ident() string {
	start := lx.i
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		if c < utf8.RuneSelf {
			if c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
				lx.i++
				continue
			}
			break
		}
		r, size := utf8.DecodeRune(lx.src[lx.i:])
		if r == utf8.RuneError || !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
			break
		}
		lx.i += size
	}
	return string(lx.src[start:lx.i])
}

// number moves over a numeric literal: digits, letters (hex digits, suffixes,
// exponents), underscores and dots, and the sign of an exponent.
func (lx *javaLexer) number() {
	src := lx.src
	hex := lx.i+1 < len(src) && src[lx.i] == '0' && (src[lx.i+1] == 'x' || src[lx.i+1] == 'X')
	for lx.i < len(src) {
		c := src[lx.i]
		switch {
		case c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.':
			lx.i++
		case (c == '+' || c == '-') && lx.i > 0 && lx.i+1 < len(src) && src[lx.i+1] >= '0' && src[lx.i+1] <= '9':
			p := src[lx.i-1]
			if p == 'p' || p == 'P' || !hex && (p == 'e' || p == 'E') {
				lx.i++
				continue
			}
			return
		default:
			return
		}
	}
}

// quoted reads a string literal "…" or a char literal '…' (whose value
// takes part in string concatenation), which must end on its line.
func (lx *javaLexer) quoted(kind javaKind, quote byte, what string) *javaReadError {
	src, start := lx.src, lx.i
	line, col := lx.line, lx.col()
	j := start + 1
	for {
		if j >= len(src) || src[j] == '\n' {
			return lx.errHere("unterminated "+what+" literal", line, col)
		}
		if src[j] == '\\' {
			j += 2
			continue
		}
		if src[j] == quote {
			break
		}
		j++
	}
	lx.i = j + 1
	lx.emit(kind, string(src[start:lx.i]), start, line, col)
	return nil
}

// textBlock reads """…""" and applies what javac does to its content: line
// terminators become \n, incidental indentation and trailing blanks are
// stripped, then escapes are interpreted.
func (lx *javaLexer) textBlock() *javaReadError {
	src, start := lx.src, lx.i
	line, col := lx.line, lx.col()
	j := start + 3
	for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\f' || src[j] == '\r') {
		j++
	}
	if j >= len(src) || src[j] != '\n' {
		return lx.errHere("text block must start with a line break after \"\"\"", line, col)
	}
	lx.advance(j + 1)
	contentStart, contentLine := lx.i, lx.line
	k := contentStart
	for {
		if k+2 >= len(src) {
			return lx.errHere("unterminated text block", line, col)
		}
		if src[k] == '\\' {
			k += 2
			continue
		}
		if src[k] == '"' && src[k+1] == '"' && src[k+2] == '"' {
			break
		}
		k++
	}
	value := javalit.StripIndent(src[contentStart:k], contentLine)
	lx.advance(k + 3)
	t := lx.emit(javaString, string(src[start:lx.i]), start, line, col)
	v := javalit.Unescape(value)
	t.block = &v
	return nil
}
