package report

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// maxSQL is how many characters of a statement the text format prints.
const maxSQL = 200

// ANSI escape sequences of the text format.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiBlue   = "\x1b[34m"
)

// streamText writes the text report to w, one block per finding and a
// summary line:
//
//	FILE:LINE:COL: CODE severity: message
//	    fix: …
//	    sql: …
//
// A run may report tens of thousands of findings: their blocks are printed
// in parts on every core at once (streamParts) and written in order.
func streamText(w io.Writer, res *lint.Result, opts Options) error {
	fs := res.Findings
	err := streamParts(w, len(fs), textPart, func(b *bytes.Buffer, from, to int) {
		part := fs[from:to]
		b.Grow(textSize(part))
		writeFindingsText(b, part, opts)
	})
	if err != nil {
		return err
	}
	var last bytes.Buffer
	if len(fs) > 0 {
		last.WriteByte('\n')
	}
	last.WriteString(summaryLine(res, opts.Live))
	last.WriteByte('\n')
	_, err = w.Write(last.Bytes())
	return err
}

// textPart is how many findings' blocks are printed into one buffer.
const textPart = 256

// writeFindingsText prints the blocks of fs.
func writeFindingsText(buf *bytes.Buffer, fs []lint.Finding, opts Options) {
	for i := range fs {
		f := &fs[i]
		code, sev := printable(f.Code), printable(string(f.Severity))
		if opts.Color {
			code = ansiBold + code + ansiReset
			if c := severityColor(f.Severity); c != "" {
				sev = c + sev + ansiReset
			}
		}
		// The lines are written piece by piece, not formatted.
		writePlace(buf, f)
		writeStrings(buf, ": ", code, " ", sev, ": ", textBlock(f.Message, "    "), ranText(f), "\n")
		if f.Fix != "" {
			writeStrings(buf, "    fix: ", textBlock(f.Fix, "         "), "\n")
		}
		if f.SQL != "" {
			sql := lint.Compact(f.SQL)
			if len(sql) > maxSQL || !plainLine(sql) {
				sql = printable(truncate(sql, maxSQL))
			}
			writeStrings(buf, "    sql: ", sql, "\n")
		}
	}
}

// textBlock is s as a block of the text format: CRLF as LF, escaped
// (printable), its lines after the first indented by indent. Most
// messages and fixes are one line of plain ASCII, which is that already.
func textBlock(s, indent string) string {
	if plainLine(s) {
		return s
	}
	return indentLines(printable(unixLines(s)), indent)
}

// plainLine reports whether s is all ASCII from space to tilde: no line
// break, nothing printable escapes.
func plainLine(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if !plainASCII8(s[i : i+8]) {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// writeStrings writes each of ss to buf.
func writeStrings(buf *bytes.Buffer, ss ...string) {
	for _, s := range ss {
		buf.WriteString(s)
	}
}

// textSize is about how many bytes writeFindingsText prints for fs, so
// that a part's buffer grows once.
func textSize(fs []lint.Finding) int {
	n := 128
	for i := range fs {
		f := &fs[i]
		n += len(f.File) + len(f.Code) + len(f.Severity) + len(f.Message) + len(f.Fix) + min(len(f.SQL), 4*maxSQL) + 64
	}
	return n
}

// writePlace writes FILE:LINE:COL, shortened when the position is
// unknown, or the target of a live finding.
func writePlace(buf *bytes.Buffer, f *lint.Finding) {
	if f.File == "" {
		buf.WriteString(printable(placeOf(f)))
		return
	}
	buf.WriteString(printable(f.File))
	if f.Line > 0 {
		buf.WriteByte(':')
		buf.Write(strconv.AppendInt(buf.AvailableBuffer(), int64(f.Line), 10))
		if f.Column > 0 {
			buf.WriteByte(':')
			buf.Write(strconv.AppendInt(buf.AvailableBuffer(), int64(f.Column), 10))
		}
	}
}

func severityColor(s policy.Severity) string {
	switch s {
	case policy.SevError:
		return ansiRed
	case policy.SevWarning:
		return ansiYellow
	case policy.SevInfo:
		return ansiBlue
	}
	return ""
}

// summaryLine is "N errors, N warnings, N infos in N files (N statements, N
// tables)", or "no findings in …". The counts come from res.Summary, the same
// numbers the json format prints. A live report counts the targets audited
// instead of files and adds those that failed; when none was audited it says
// so rather than "no findings".
func summaryLine(res *lint.Result, live *Live) string {
	s := res.Summary
	where := "in " + plural(s.Files, "file", "files")
	failed := ""
	if live != nil {
		where = "on " + plural(live.Audited, "target", "targets")
		if n := len(live.Failures); n > 0 {
			failed = "; " + plural(n, "target", "targets") + " not audited (see stderr)"
			if live.Audited == 0 && len(res.Findings) == 0 {
				return "nothing audited: " + plural(n, "target", "targets") + " failed (see stderr)"
			}
		}
	}
	scope := fmt.Sprintf("%s (%s, %s)", where,
		plural(s.Statements, "statement", "statements"),
		plural(s.Tables, "table", "tables"))
	if len(res.Findings) == 0 && s.Error+s.Warning+s.Info == 0 {
		return "no findings " + scope + failed
	}
	return fmt.Sprintf("%s, %s, %s %s%s",
		plural(s.Error, "error", "errors"),
		plural(s.Warning, "warning", "warnings"),
		plural(s.Info, "info", "infos"),
		scope, failed)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// truncate cuts s to at most n characters, the last one an ellipsis when
// anything was cut.
func truncate(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	var sb strings.Builder
	i := 0
	for _, r := range s {
		if i == n-1 {
			break
		}
		sb.WriteRune(r)
		i++
	}
	sb.WriteString("…")
	return sb.String()
}

// indentLines indents every line after the first, so a multi-line message
// stays visibly inside its finding.
func indentLines(s, indent string) string {
	s = strings.TrimRight(s, "\n")
	return strings.ReplaceAll(s, "\n", "\n"+indent)
}

// unixLines turns CRLF line ends into LF, so text written on Windows does not
// print a \r at the end of each line.
func unixLines(s string) string {
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// printable escapes control characters (keeping newlines and tabs) and
// invalid UTF-8: finding text quotes SQL from the scanned code, and an escape
// sequence hidden in a string literal must not drive the user's terminal.
func printable(s string) string {
	for i := 0; i < len(s); {
		// Eight bytes at a time while they are printable ASCII: most
		// report text is.
		for i+8 <= len(s) && plainASCII8(s[i:i+8]) {
			i += 8
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if !mayEscape[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return escaped(s) // a control character
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || needsEscape(r) {
			return escaped(s)
		}
		i += size
	}
	return s
}

// plainASCII8 reports whether the eight bytes of s are ASCII from space to
// tilde, which printable keeps as they are.
func plainASCII8(s string) bool {
	x := binary.LittleEndian.Uint64([]byte(s))
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := (x - 0x20*ones) &^ x // a high bit where a byte is below 0x20 (or non-ASCII)
	del := x ^ 0x7f*ones
	isDel := (del - ones) &^ del // a high bit where a byte is 0x7f
	return (x|below|isDel)&highs == 0
}

// mayEscape marks the bytes printable has to look at: the control
// characters but newline and tab, DEL, and the bytes of non-ASCII
// characters.
var mayEscape = func() (m [256]bool) {
	for c := range m {
		m[c] = c >= utf8.RuneSelf || needsEscape(rune(c))
	}
	return m
}()

// escaped is printable of a text that needs escaping.
func escaped(s string) string {
	var sb strings.Builder
	for i, w := 0, 0; i < len(s); i += w {
		r, size := utf8.DecodeRuneInString(s[i:])
		w = size
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&sb, `\x%02x`, s[i])
		case r == '\r':
			sb.WriteString(`\r`)
		case needsEscape(r) && r < 0x80:
			fmt.Fprintf(&sb, `\x%02x`, r)
		case needsEscape(r):
			fmt.Fprintf(&sb, `\u%04x`, r)
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

func needsEscape(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f: // C1 controls, CSI among them
		return true
	}
	return false
}
