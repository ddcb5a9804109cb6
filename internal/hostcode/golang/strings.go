package golang

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
)

// goString is the value of a Go string constant together with where each of
// its bytes stands in the file.
type goString struct {
	s    string
	segs []stmt.Segment
}

// Limits on constant folding: a file can declare constants that double in
// size at each step, and a fuzzer will find it.
const (
	goMaxConstLen  = 1 << 20
	goMaxConstSegs = 1 << 14
	goMaxDepth     = 64
)

// goLooksLikeSQL reports whether s, past leading blanks and SQL comments,
// starts with a SQL verb followed by white space (hostcode.LooksLikeSQL).
func goLooksLikeSQL(s string) bool {
	pieces := sqlparse.Split(s)
	return len(pieces) > 0 && hostcode.LooksLikeSQL(pieces[0].Text)
}

// litText is the literal as it stands in the file: the parser drops the
// carriage returns of a raw string from its Value, and the columns after one
// would be off. ok is false for a literal that is not closed, which only a
// file with a syntax error holds.
func (x *goExtractor) litText(lit *ast.BasicLit) (text string, ok bool) {
	v := lit.Value
	if len(v) < 2 || v[len(v)-1] != v[0] {
		return "", false
	}
	if v[0] != '`' {
		return v, true
	}
	a, b := x.offset(lit.Pos()), x.offset(lit.End())
	if a < 0 || b > len(x.src) || b-a < 2 || x.src[a] != '`' || x.src[b-1] != '`' {
		return "", false
	}
	return string(x.src[a:b]), true
}

// goDecodeLit decodes the text v of a string literal and maps every byte of
// its value to the file. start is the position of the opening quote.
func goDecodeLit(v string, start token.Position) (goString, bool) {
	if len(v) < 2 {
		return goString{}, false
	}
	body := v[1 : len(v)-1]
	var b strings.Builder
	var segs []stmt.Segment
	line, col := start.Line, start.Column+1
	newSeg := true
	if v[0] == '`' {
		// Raw strings are the file text itself, less carriage returns: a new
		// segment after each dropped \r keeps the columns exact.
		for i := 0; i < len(body); i++ {
			c := body[i]
			if c == '\r' {
				col++
				newSeg = true
				continue
			}
			if newSeg {
				segs = append(segs, stmt.Segment{Off: b.Len(), Line: line, Col: col})
				newSeg = false
			}
			b.WriteByte(c)
			if c == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		return goString{s: b.String(), segs: segs}, true
	}
	if v[0] != '"' {
		return goString{}, false
	}
	// Interpreted strings: a new segment after each escape sequence, so that
	// the text after an escape (and after an escaped newline) maps exactly.
	for i := 0; i < len(body); {
		if newSeg {
			segs = append(segs, stmt.Segment{Off: b.Len(), Line: line, Col: col})
			newSeg = false
		}
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			i++
			col++
			continue
		}
		r, multibyte, tail, err := strconv.UnquoteChar(body[i:], '"')
		if err != nil {
			return goString{}, false
		}
		if multibyte {
			b.WriteRune(r)
		} else {
			b.WriteByte(byte(r)) // \x and octal escapes are single bytes
		}
		n := len(body) - i - len(tail)
		i += n
		col += n
		newSeg = true
	}
	return goString{s: b.String(), segs: segs}, true
}

// goStringBuf folds the operands of one concatenation in place, in time
// linear in the result: joining them pairwise copies all that came before at
// each operand, quadratic in their number.
type goStringBuf struct {
	b    []byte
	segs []stmt.Segment
}

// add appends piece, shifting its segments; false when the result would
// exceed the folding limits.
func (g *goStringBuf) add(piece goString) bool {
	if len(g.b)+len(piece.s) > goMaxConstLen || len(g.segs)+len(piece.segs) > goMaxConstSegs {
		return false
	}
	if piece.s == "" {
		return true
	}
	for _, sg := range piece.segs {
		sg.Off += len(g.b)
		g.segs = append(g.segs, sg)
	}
	g.b = append(g.b, piece.s...)
	return true
}

// value returns what was appended.
func (g *goStringBuf) value() goString { return goString{s: string(g.b), segs: g.segs} }

// goUnparen strips parentheses.
func goUnparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// goFlattenConcat lists the operands of a chain of + from left to right,
// without recursion: a file may hold a very long chain.
func goFlattenConcat(e ast.Expr) []ast.Expr {
	var ops []ast.Expr
	stack := []ast.Expr{e}
	for len(stack) > 0 {
		n := goUnparen(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		if b, ok := n.(*ast.BinaryExpr); ok && b.Op == token.ADD {
			stack = append(stack, b.Y, b.X)
			continue
		}
		ops = append(ops, n)
	}
	return ops
}

// goBasicTypes are the predeclared types whose conversions are transparent
// for the analysis (string(q), int(n)).
var goBasicTypes = map[string]bool{
	"string": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"float32": true, "float64": true, "byte": true, "rune": true,
}

// conversion returns the operand of a conversion to a basic type or to a
// type declared in the file (Query("…")); nil when call is not one.
func (x *goExtractor) conversion(call *ast.CallExpr) ast.Expr {
	if len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return nil
	}
	id, ok := goUnparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	if goBasicTypes[id.Name] && x.universal(id) {
		return call.Args[0]
	}
	if !x.typeNamed[id.Name] {
		return nil // not a type of the file: spares the type check
	}
	if obj := x.objOf(id); obj != nil && obj.kind == goTyp {
		return call.Args[0]
	}
	return nil
}

// constString folds e when it is a string constant: a literal, a constant of
// the file, a conversion of one, or a + of those.
func (x *goExtractor) constString(e ast.Expr) (goString, bool) {
	return x.constStringDepth(e, 0)
}

func (x *goExtractor) constStringDepth(e ast.Expr, depth int) (goString, bool) {
	if depth > goMaxDepth {
		return goString{}, false
	}
	switch e := goUnparen(e).(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return goString{}, false
		}
		text, ok := x.litText(e)
		if !ok {
			return goString{}, false
		}
		return goDecodeLit(text, x.position(e.Pos()))
	case *ast.Ident:
		if !x.constNamed[e.Name] {
			return goString{}, false // not a constant of the file: spares the type check
		}
		obj := x.objOf(e)
		if obj == nil || obj.kind != goCon {
			return goString{}, false
		}
		return x.constObject(obj, depth)
	case *ast.CallExpr:
		if arg := x.conversion(e); arg != nil {
			return x.constStringDepth(arg, depth+1)
		}
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return goString{}, false
		}
		var acc goStringBuf
		for _, op := range goFlattenConcat(e) {
			v, ok := x.constStringDepth(op, depth+1)
			if !ok || !acc.add(v) {
				return goString{}, false
			}
		}
		return acc.value(), true
	}
	return goString{}, false
}

// goConstMemo is the folded value of one constant; ok is false when the
// constant is not a string (or is being folded: a cycle).
type goConstMemo struct {
	val  goString
	ok   bool
	done bool
}

// constObject folds the constant obj, once.
func (x *goExtractor) constObject(obj *goObj, depth int) (goString, bool) {
	m := x.constMemo[obj]
	if m != nil {
		return m.val, m.ok && m.done
	}
	val, ok := x.constValue[obj]
	if !ok {
		return goString{}, false
	}
	m = &goConstMemo{}
	x.constMemo[obj] = m // marks the constant as in progress: a cycle folds to nothing
	m.val, m.ok = x.constStringDepth(val, depth+1)
	m.done = true
	return m.val, m.ok
}

// constInt is the text of an integer constant: a literal, or a constant of
// the files read whose value is one (a goctl model's page size).
func (x *goExtractor) constInt(e ast.Expr) (string, bool) {
	for range goMaxDepth {
		switch v := goUnparen(e).(type) {
		case *ast.BasicLit:
			if v.Kind != token.INT {
				return "", false
			}
			n, err := strconv.ParseInt(strings.ReplaceAll(v.Value, "_", ""), 0, 64)
			if err != nil {
				return "", false
			}
			return strconv.FormatInt(n, 10), true
		case *ast.Ident:
			obj := x.pkgObjOf(v)
			if obj == nil && !x.universal(v) {
				x.wantPackage()
			}
			if obj == nil || obj.kind != goCon || obj.file.constValue[obj] == nil {
				return "", false
			}
			e = obj.file.constValue[obj] // the names in it are that file's
			x = obj.file
		default:
			return "", false
		}
	}
	return "", false
}

// constPrefix is the constant text at the start of e: the leading constant
// operands of a + chain (all of e when it is constant).
func (x *goExtractor) constPrefix(e ast.Expr) string {
	var b strings.Builder
	for _, op := range goFlattenConcat(e) {
		v, ok := x.constString(op)
		if !ok || b.Len()+len(v.s) > goMaxConstLen {
			break
		}
		b.WriteString(v.s)
	}
	return b.String()
}

// exprText is the source text of e on one line, shortened for a message.
func (x *goExtractor) exprText(e ast.Node) string {
	a, b := x.offset(e.Pos()), x.offset(e.End())
	if a < 0 || b > len(x.src) || a >= b {
		return "?"
	}
	s := strings.Join(strings.Fields(string(x.src[a:b])), " ")
	const maxLen = 40
	if len(s) > maxLen {
		cut := maxLen
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
