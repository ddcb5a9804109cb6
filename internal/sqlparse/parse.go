package sqlparse

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/format"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver" // value expressions for the parser
)

// Error is a parse error positioned inside the statement text given to Parse.
type Error struct {
	Line   int // 1-based line within the statement text
	Column int // 1-based column within that line
	Msg    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg)
}

// Parser parses statements. A Parser is not safe for concurrent use: give each
// goroutine its own.
type Parser struct {
	p *parser.Parser
}

// NewParser returns a parser that accepts MySQL and MariaDB syntax.
func NewParser() *Parser {
	p := parser.New()
	p.EnableWindowFunc(true)
	return &Parser{p: p}
}

// Parse parses exactly one statement. On failure the error is an *Error.
func (p *Parser) Parse(sql string) (StmtNode, error) {
	stmts, err := p.parse(sql)
	if err != nil {
		return nil, toError(sql, err)
	}
	switch len(stmts) {
	case 0:
		return nil, &Error{Line: 1, Column: 1, Msg: "no statement"}
	case 1:
		return stmts[0], nil
	default:
		off := stmts[1].OriginTextPosition()
		line, col := LineCol(sql, off)
		return nil, &Error{Line: line, Column: col, Msg: "more than one statement where one was expected"}
	}
}

// ParseAll parses a text that may hold several statements in one call, as a
// reference for the cost of parsing alone.
func (p *Parser) ParseAll(sql string) ([]StmtNode, error) {
	stmts, err := p.parse(sql)
	if err != nil {
		return nil, toError(sql, err)
	}
	return stmts, nil
}

// toError turns the parser's message, which carries "line L column C near
// "TEXT"", into an Error positioned at the first character of TEXT: the
// parser's column is where it stopped, past the token it could not use.
func toError(sql string, err error) *Error {
	if e, ok := err.(*Error); ok {
		return e
	}
	msg := err.Error()
	line, col := 1, 1
	stop := 0
	if k := strings.Index(msg, "line "); k >= 0 {
		var l, c int
		if n, _ := fmt.Sscanf(msg[k:], "line %d column %d", &l, &c); n == 2 {
			stop = offsetOf(sql, l, c)
			line, col = LineCol(sql, stop)
		}
	}
	near := ""
	if i := strings.Index(msg, "near \""); i >= 0 {
		rest := msg[i+len("near \""):]
		if j := strings.LastIndex(rest, "\""); j >= 0 {
			near = rest[:j]
		}
		msg = "syntax error " + msg[i:]
	} else if j := strings.Index(msg, "]"); j >= 0 && strings.HasPrefix(msg, "[") {
		msg = msg[j+1:]
	}
	if near != "" {
		best := -1
		for from := 0; from <= stop && from < len(sql); {
			k := strings.Index(sql[from:], near)
			if k < 0 || from+k > stop {
				break
			}
			best = from + k
			from += k + 1
		}
		if best >= 0 {
			line, col = LineCol(sql, best)
		}
	}
	return &Error{Line: line, Column: col, Msg: strings.TrimSpace(msg)}
}

// offsetOf returns the byte offset of the 1-based line and 0-based column the
// parser reports.
func offsetOf(sql string, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(sql[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	off += col
	if off > len(sql) {
		off = len(sql)
	}
	if off < 0 {
		off = 0
	}
	return off
}

// LineCounter gives the positions of the offsets of one text in increasing
// order, as LineCol does, in time linear in the text: LineCol counts from the
// start of the text each time.
type LineCounter struct {
	text  string
	off   int // the offset reached
	line  int // its line
	start int // the offset where that line starts
}

// NewLineCounter returns a LineCounter at the start of text.
func NewLineCounter(text string) *LineCounter { return &LineCounter{text: text, line: 1} }

// At returns the 1-based line and column of byte offset off. An offset
// before the one asked for last is counted from the start again.
func (c *LineCounter) At(off int) (line, col int) {
	off = min(max(off, 0), len(c.text))
	if off < c.off {
		c.off, c.line, c.start = 0, 1, 0
	}
	run := c.text[c.off:off]
	if n := strings.Count(run, "\n"); n > 0 {
		c.line += n
		c.start = c.off + strings.LastIndexByte(run, '\n') + 1
	}
	c.off = off
	return c.line, off - c.start + 1
}

// LineCol returns the 1-based line and column of byte offset off in text.
func LineCol(text string, off int) (line, col int) {
	if off > len(text) {
		off = len(text)
	}
	line = 1 + strings.Count(text[:off], "\n")
	col = off - (strings.LastIndexByte(text[:off], '\n') + 1) + 1
	return line, col
}

// Restore prints a node back as SQL in guard's canonical form: keywords upper
// case, names in backticks, strings single-quoted.
func Restore(n Node) string { return restore(n, 0) }

// restore prints n with guard's canonical flags plus extra.
func restore(n Node, extra format.RestoreFlags) string {
	var sb strings.Builder
	flags := format.RestoreStringSingleQuotes | format.RestoreKeyWordUppercase | format.RestoreNameBackQuotes | format.RestoreNameLowercase | extra
	if err := n.Restore(format.NewRestoreCtx(flags, &sb)); err != nil {
		return ""
	}
	return sb.String()
}
