package golang

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// The values and conditions of a GORM chain, written as the SQL GORM sends.

// goSQLLiteral renders a Go literal as SQL (1, 'paid', TRUE, NULL), ""
// when v is not one.
func goSQLLiteral(v ast.Expr) string {
	switch v := goUnparen(v).(type) {
	case *ast.BasicLit:
		switch v.Kind {
		case token.INT, token.FLOAT:
			return v.Value
		case token.STRING:
			s, err := strconv.Unquote(v.Value)
			if err != nil {
				return ""
			}
			return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", "''") + "'"
		}
	case *ast.Ident:
		switch v.Name {
		case "true":
			return "TRUE"
		case "false":
			return "FALSE"
		case "nil":
			return "NULL"
		}
	case *ast.UnaryExpr:
		if lit, ok := v.X.(*ast.BasicLit); ok && v.Op == token.SUB && (lit.Kind == token.INT || lit.Kind == token.FLOAT) {
			return "-" + lit.Value
		}
	}
	return ""
}

// goZeroLiteral reports whether v is a zero literal, which GORM's Updates
// with a struct leaves out.
func goZeroLiteral(v ast.Expr) bool {
	switch l := goSQLLiteral(v); l {
	case "0", "''", "FALSE", "NULL", "0.0":
		return true
	}
	return false
}

// goCountMarks counts the `?` of a SQL text outside quotes.
func goCountMarks(s string) int {
	return len(goMarks(s))
}

// goMarks returns the byte offsets of the placeholders of s, quoted text
// skipped.
func goMarks(s string) []int {
	var at []int
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '?':
			at = append(at, i)
		}
	}
	return at
}

// goBindLiterals writes into the SQL text of a gorm.Expr the integer
// literals its arguments bind, when every placeholder has one:
// gorm.Expr("stock - ?", 1) is `stock - 1`, a decrement by one that
// `stock > 0` guards. Any other argument leaves the text as it is.
func goBindLiterals(text string, args []ast.Expr) string {
	for _, a := range args {
		if lit, ok := goUnparen(a).(*ast.BasicLit); !ok || lit.Kind != token.INT {
			return text
		}
	}
	return goBindSome(text, args)
}

// goBindSome writes into a condition's text the integer literals of those
// of its arguments that are one, leaving a placeholder for the others:
// Where("voucher_id = ? AND stock > ?", id, 0) is `voucher_id = ? AND
// stock > 0`, which guards a decrement by one. A text whose placeholders
// are not one per argument stays as it is.
func goBindSome(text string, args []ast.Expr) string {
	marks := goMarks(text)
	if len(marks) == 0 || len(marks) != len(args) {
		return text
	}
	var b strings.Builder
	prev := 0
	for i, m := range marks {
		b.WriteString(text[prev:m])
		if lit, ok := goUnparen(args[i]).(*ast.BasicLit); ok && lit.Kind == token.INT {
			b.WriteString(lit.Value)
		} else {
			b.WriteByte('?')
		}
		prev = m + 1
	}
	b.WriteString(text[prev:])
	return b.String()
}

// gormWhere renders the arguments of a Where: a condition text with its
// arguments (`IN ?` becomes `IN (?)`, as GORM expands a slice), a bare
// column with one value, or a struct or map of equalities.
func (x *goExtractor) gormWhere(args []ast.Expr, model *GoModel) (text string, ok bool) {
	if len(args) == 0 {
		return "", false
	}
	if s, isStr := x.constString(args[0]); isStr {
		t := strings.TrimSpace(s.s)
		if goPlainName(t) && len(args) == 2 {
			if model != nil {
				if f := x.gormField(model, t); f != nil {
					t = f.Column
				}
			}
			return "`" + t + "` = ?", true
		}
		t = goExpandIn(t)
		if goCountMarks(t) != len(args)-1 || strings.Contains(t, "@") {
			return "", false
		}
		return "(" + goBindSome(t, args[1:]) + ")", true
	}
	if len(args) != 1 {
		return "", false
	}
	arg := goUnparen(args[0])
	if u, isAddr := arg.(*ast.UnaryExpr); isAddr && u.Op == token.AND {
		arg = goUnparen(u.X)
	}
	lit, isLit := arg.(*ast.CompositeLit)
	if !isLit {
		return "", false
	}
	var conds []string
	if _, isMap := lit.Type.(*ast.MapType); isMap {
		for _, el := range lit.Elts {
			kv, isKV := el.(*ast.KeyValueExpr)
			if !isKV {
				return "", false
			}
			k, isStr := x.constString(kv.Key)
			if !isStr || !goPlainName(k.s) {
				return "", false
			}
			conds = append(conds, "`"+k.s+"` = ?")
		}
	} else {
		m := x.gormModelOfType(lit.Type)
		if m == nil {
			return "", false
		}
		for _, el := range lit.Elts {
			kv, isKV := el.(*ast.KeyValueExpr)
			if !isKV {
				return "", false
			}
			k, isID := kv.Key.(*ast.Ident)
			if !isID {
				return "", false
			}
			if goZeroLiteral(kv.Value) {
				continue // a struct condition skips zero fields
			}
			f := x.gormField(m, k.Name)
			if f == nil {
				return "", false
			}
			conds = append(conds, "`"+f.Column+"` = ?")
		}
	}
	if len(conds) == 0 {
		return "", false
	}
	return strings.Join(conds, " AND "), true
}

// goExpandIn writes `IN ?` as `IN (?)`: GORM expands a slice bound to the
// placeholder into a parenthesised list.
func goExpandIn(s string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			b.WriteByte(c)
			continue
		}
		if c == '\'' || c == '"' || c == '`' {
			quote = c
		}
		if c == '?' && goAfterIn(s[:i]) {
			b.WriteString("(?)")
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// goAfterIn reports whether the text before a placeholder ends in the word
// IN (past blanks).
func goAfterIn(before string) bool {
	t := strings.TrimRight(before, " \t\r\n")
	if len(t) < 2 || !strings.EqualFold(t[len(t)-2:], "in") {
		return false
	}
	return len(t) == 2 || !goPlainName(t[len(t)-3:len(t)-2])
}
