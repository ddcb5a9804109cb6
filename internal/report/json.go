package report

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/guard-sql/guard/lint"
)

// jsonReport is the document of --format json (DESIGN §5). Findings and
// Summary take their keys from lint's struct tags, so the contract has one
// definition; appendFindingJSON prints a finding as encoding/json would print
// those tags, and a test holds the two together.
type jsonReport struct {
	Tool     string         `json:"tool"`
	Version  string         `json:"version"`
	Findings []lint.Finding `json:"findings"`
	Summary  lint.Summary   `json:"summary"`
	// Failures and Redis are a live report's (Options.Live).
	Failures *[]Failure `json:"failures,omitempty"`
	Redis    any        `json:"redis,omitempty"`
}

// jsonPart is how many findings are printed into one buffer.
const jsonPart = 256

// streamJSON writes the report indented by two spaces with a trailing
// newline, as encoding/json's Encoder with SetIndent("", "  ") prints
// jsonReport. HTML escaping is off: SQL is full of < and >, and \u003c
// helps no reader. The findings, most of a large report, are printed in
// parts on every core (streamParts) and written as they are done.
func streamJSON(w io.Writer, res *lint.Result, opts Options) error {
	var head bytes.Buffer
	head.WriteString("{\n  \"tool\": \"guard\",\n  \"version\": ")
	head.Write(appendJSONString(nil, opts.Version))
	head.WriteString(",\n  \"findings\": [")
	fs := res.Findings
	if len(fs) == 0 {
		head.WriteString("]")
	}
	if _, err := w.Write(head.Bytes()); err != nil {
		return err
	}
	err := streamParts(w, len(fs), jsonPart, func(b *bytes.Buffer, from, to int) {
		out := b.AvailableBuffer()
		for i := from; i < to; i++ {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, "\n    "...)
			out = appendFindingJSON(out, &fs[i])
		}
		b.Write(out)
	})
	if err != nil {
		return err
	}
	var tail bytes.Buffer
	if len(fs) > 0 {
		tail.WriteString("\n  ]")
	}
	tail.WriteString(",\n  \"summary\": ")
	type member struct {
		key   string
		value any
	}
	rest := []member{{"summary", res.Summary}}
	if l := opts.Live; l != nil {
		failures := l.Failures
		if failures == nil {
			failures = []Failure{}
		}
		rest = append(rest, member{"failures", failures})
		if l.Redis != nil {
			rest = append(rest, member{"redis", l.Redis})
		}
	}
	enc := json.NewEncoder(&tail)
	enc.SetIndent("  ", "  ")
	enc.SetEscapeHTML(false)
	for i, r := range rest {
		if i > 0 {
			tail.Truncate(tail.Len() - 1) // the encoder's newline
			tail.WriteString(",\n  ")
			tail.Write(appendJSONString(nil, r.key))
			tail.WriteString(": ")
		}
		if err := enc.Encode(r.value); err != nil {
			return err
		}
	}
	tail.Truncate(tail.Len() - 1)
	tail.WriteString("\n}\n")
	_, err = w.Write(tail.Bytes())
	return err
}

// appendFindingJSON appends f as an object indented for its place in the
// findings array (its members at six spaces, its closing brace at four).
func appendFindingJSON(b []byte, f *lint.Finding) []byte {
	str := func(b []byte, key, v string, first bool) []byte {
		if !first {
			b = append(b, ',')
		}
		b = append(b, "\n      \""...)
		b = append(b, key...)
		b = append(b, "\": "...)
		return appendJSONString(b, v)
	}
	num := func(b []byte, key string, v int64) []byte {
		b = append(b, ",\n      \""...)
		b = append(b, key...)
		b = append(b, "\": "...)
		return strconv.AppendInt(b, v, 10)
	}
	b = append(b, '{')
	b = str(b, "code", f.Code, true)
	b = str(b, "rule", f.Rule, false)
	b = str(b, "severity", string(f.Severity), false)
	b = str(b, "file", f.File, false)
	b = num(b, "line", int64(f.Line))
	b = num(b, "column", int64(f.Column))
	b = num(b, "end_line", int64(f.EndLine))
	b = str(b, "target", f.Target, false)
	b = str(b, "table", f.Table, false)
	b = str(b, "column_name", f.ColumnName, false)
	b = str(b, "message", f.Message, false)
	b = str(b, "fix", f.Fix, false)
	b = str(b, "sql", f.SQL, false)
	if f.Digest != "" {
		b = str(b, "digest", f.Digest, false)
	}
	if f.Executions != 0 {
		b = num(b, "executions", f.Executions)
	}
	if f.FirstSeen != "" {
		b = str(b, "first_seen", f.FirstSeen, false)
	}
	if f.LastSeen != "" {
		b = str(b, "last_seen", f.LastSeen, false)
	}
	if len(f.Settings) > 0 {
		keys := make([]string, 0, len(f.Settings))
		for k := range f.Settings {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, ",\n      \"settings\": {"...)
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n        "...)
			b = appendJSONString(b, k)
			b = append(b, ": "...)
			b = appendJSONString(b, f.Settings[k])
		}
		b = append(b, "\n      }"...)
	}
	if f.Databases != 0 {
		b = num(b, "databases", int64(f.Databases))
	}
	return append(b, "\n    }"...)
}

// appendJSONString appends s quoted as encoding/json quotes a string with
// HTML escaping off: \" and \\, \b \f \n \r \t, \u00XX for the other
// control characters, \ufffd for a byte that is not UTF-8, and \u2028 and
// \u2029, which JavaScript does not take in a string.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
