package mybatisxml

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/stmt"
)

// ExtractXML finds the statements of a MyBatis mapper: every <select>,
// <insert>, <update> and <delete> becomes one Fragment, or one per variant
// when dynamic tags make its SQL depend on run-time conditions. An XML file
// whose root is not <mapper> yields no fragments; a file that is not
// well-formed XML yields one Unchecked fragment at the decoder's error.
func ExtractXML(path string, src []byte) *hostcode.File {
	f := &hostcode.File{Path: path, Lang: stmt.LangXML}
	// Editors do not count a byte order mark as a column.
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	// XML ends a line at CR as at LF (XML 1.0 §2.11).
	src = hostcode.LoneCRToLF(src)
	doc := mbParse(mbDocText(src, []stmt.Segment{{Off: 0, Line: 1, Col: 1}}), "mapper")
	for _, c := range doc.comments {
		// A comment may wrap; the suppression reads as one line.
		text := strings.Join(strings.Fields(c.text), " ")
		if code, reason, ok := hostcode.ParseSuppression(text); ok {
			f.Suppressions = append(f.Suppressions, stmt.Suppression{Code: code, Reason: reason, Line: c.line, Col: c.col})
		}
	}
	if doc.err != nil {
		f.Fragments = []*stmt.Fragment{doc.err.fragment(path, stmt.LangXML)}
		return f
	}
	if doc.root == nil {
		f.Suppressions = nil
		return f
	}
	m := newMbMapper(doc.root)
	for _, c := range doc.comments {
		// MyBatis Generator tags every element it writes with this comment,
		// unless its configuration suppresses comments.
		m.generated = m.generated || strings.Contains(c.text, "@mbg.generated")
	}
	for _, n := range doc.root.kids {
		switch n.name {
		case "select", "insert", "update", "delete":
			base := stmt.Fragment{File: path, Lang: stmt.LangXML, Line: n.line, Col: n.col, EndLine: n.endLine, ID: n.attr("id"), ParameterType: n.attr("parameterType"), Namespace: m.namespace}
			// A statement the generator wrote, not one added by hand: it
			// carries the generator's comment, or, in a generated mapper
			// whose comments are suppressed, one of the generator's ids.
			if m.generated && mbGeneratedWrites[base.ID] {
				base.Generated = "@mbg.generated"
			}
			for _, c := range doc.comments {
				if c.line >= n.line && c.line <= n.endLine && strings.Contains(c.text, "@mbg.generated") {
					base.Generated = "@mbg.generated"
				}
			}
			f.Fragments = append(f.Fragments, m.fragments(n, base)...)
		}
	}
	return f
}

// mbGeneratedWrites are the ids of the writes MyBatis Generator gives every
// mapper.
var mbGeneratedWrites = map[string]bool{
	"insert": true, "insertSelective": true,
	"updateByPrimaryKey": true, "updateByPrimaryKeySelective": true, "updateByPrimaryKeyWithBLOBs": true,
	"updateByExample": true, "updateByExampleSelective": true, "updateByExampleWithBLOBs": true,
}

// ExtractMyBatisScript renders a MyBatis <script>…</script> string (dynamic
// SQL inside a Java annotation) the way ExtractXML renders a mapper statement.
// segs maps offsets of text to the host file, as Fragment.Segments does; line
// is the line of the construct holding the string. The fragments carry no ID:
// the caller knows the method.
func ExtractMyBatisScript(path string, text string, segs []stmt.Segment, line int) []*stmt.Fragment {
	src := mbDocText([]byte(text), mbCleanSegments(segs, len(text), line))
	doc := mbParse(src, "")
	if doc.err != nil {
		return []*stmt.Fragment{doc.err.fragment(path, stmt.LangJava)}
	}
	if doc.root == nil {
		return nil
	}
	endLine, _ := src.posAt(max(len(text)-1, 0))
	_, col := src.posAt(0)
	base := stmt.Fragment{File: path, Lang: stmt.LangJava, Line: line, Col: col, EndLine: max(endLine, line)}
	return newMbMapper(nil).fragments(doc.root, base)
}

// mbNode is an element or a text of a mapper. Text nodes have no name.
type mbNode struct {
	name    string
	attrs   []xml.Attr
	kids    []*mbNode
	text    mbText
	line    int
	col     int
	endLine int
	// tooDeep marks a statement or <sql> element whose dynamic tags nest
	// deeper than mbMaxDepth; what lies below that depth is not kept.
	tooDeep bool
}

// attr returns the value of the attribute named name, or "".
func (n *mbNode) attr(name string) string {
	v, _ := n.lookupAttr(name)
	return v
}

func (n *mbNode) lookupAttr(name string) (string, bool) {
	for _, a := range n.attrs {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// mbComment is an XML comment and where it starts.
type mbComment struct {
	text      string
	line, col int
}

// mbError is a problem that leaves SQL unchecked, with where it stands.
type mbError struct {
	msg       string
	line, col int
}

func (e *mbError) fragment(path string, lang stmt.Lang) *stmt.Fragment {
	return &stmt.Fragment{File: path, Lang: lang, Unchecked: e.msg, Line: e.line, Col: e.col, EndLine: e.line}
}

// mbDoc is a parsed document: its root element (nil when there is none, or
// when it is not the one asked for), its comments, or the decoder's error.
type mbDoc struct {
	root     *mbNode
	comments []mbComment
	err      *mbError
}

// mbParse reads src token by token into a tree. When root is not empty and
// the document's root element has another name, it stops there and returns
// no root. DOCTYPE declarations are skipped, never fetched.
func mbParse(src mbText, root string) mbDoc {
	var doc mbDoc
	d := xml.NewDecoder(bytes.NewReader(src.s))
	d.Strict = true
	// Mappers declared in another encoding (GBK is common) are read byte for
	// byte: SQL keywords are ASCII in all of them, and offsets stay exact.
	d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	var stack []*mbNode
	// A mapper's statements and <sql> elements are the root's children; a
	// <script> is itself the statement. Elements nested deeper than
	// mbMaxDepth below it are skipped, counted by skip.
	top, skip := 1, 0
	if root == "" {
		top = 0
	}
	for {
		start := int(d.InputOffset())
		tok, err := d.Token()
		end := int(d.InputOffset())
		if err != nil {
			if errors.Is(err, io.EOF) && len(stack) == 0 {
				return doc
			}
			doc.err = mbDecodeError(src, err, start, end, stack)
			return doc
		}
		if skip > 0 {
			switch tok.(type) {
			case xml.StartElement:
				skip++
			case xml.EndElement:
				skip--
			}
			if _, ok := tok.(xml.Comment); !ok {
				continue
			}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) > top+mbMaxDepth {
				stack[top].tooDeep = true
				skip = 1
				continue
			}
			line, col := src.posAt(start)
			n := &mbNode{name: t.Name.Local, attrs: t.Attr, line: line, col: col}
			if len(stack) == 0 {
				if root != "" && n.name != root {
					return doc
				}
				doc.root = n
			} else {
				top := stack[len(stack)-1]
				top.kids = append(top.kids, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) == 0 { // the strict decoder reports it first; be safe anyway
				continue
			}
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			at := start
			if start == end { // the end of a self-closing element: its ">"
				at = max(end-1, 0)
			}
			n.endLine, _ = src.posAt(at)
			if len(stack) == 0 {
				return doc
			}
		case xml.CharData:
			if len(stack) > 0 && end > start {
				top := stack[len(stack)-1]
				top.kids = append(top.kids, &mbNode{text: mbDecodeText(src, start, end)})
			}
		case xml.Comment:
			line, col := src.posAt(start)
			doc.comments = append(doc.comments, mbComment{text: string(t), line: line, col: col})
		}
	}
}

// mbDecodeError positions a decoder error at the offset the decoder reached,
// or at the start of the end tag that does not match.
func mbDecodeError(src mbText, err error, start, off int, stack []*mbNode) *mbError {
	msg := err.Error()
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		msg = se.Msg
		if strings.HasPrefix(msg, "element <") && strings.Contains(msg, "> closed by </") {
			off = start
		}
	}
	if len(stack) > 0 && (errors.Is(err, io.EOF) || msg == "unexpected EOF") {
		open := stack[len(stack)-1]
		msg = fmt.Sprintf("unexpected end of file: <%s> at line %d is not closed", open.name, open.line)
	}
	line, col := src.posAt(min(off, len(src.s)))
	return &mbError{msg: "xml: " + msg, line: line, col: col}
}

// mbCleanSegments returns segs in the form mbText relies on: sorted, within
// the text, the first at offset 0 (at line, column 1 when segs has none).
func mbCleanSegments(segs []stmt.Segment, n, line int) []stmt.Segment {
	out := []stmt.Segment{{Off: 0, Line: line, Col: 1}}
	for _, s := range segs {
		switch {
		case s.Off == 0:
			out[0] = s
		case s.Off > out[len(out)-1].Off && s.Off <= n:
			out = append(out, s)
		}
	}
	return out
}
