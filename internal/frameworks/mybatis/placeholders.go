package mybatis

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/hostcode/mybatisxml"
	"github.com/guard-sql/guard/internal/stmt"
)

// placeholders rewrites the parameters of MyBatis annotation SQL:
// #{x} becomes the JDBC marker ? and so does ${x}, which is also recorded as a
// Dollar so that the substitution is reported while the rest of the statement
// is still checked; a MyBatis-Plus wrapper segment (${ew.customSqlSegment})
// becomes its stand-in instead, and callerWhere reports that the WHERE is
// the caller's wrapper. A backslash before the opening token escapes it, as in
// MyBatis' own token parser; a token that never closes is left as written.
// names are the names of the values of the placeholders of out, in order
// ("" for one no caller passes by name: see mybatisxml.ParamSources).
func placeholders(t java.Text) (out java.Text, dollars []stmt.Dollar, callerWhere bool, names []string) {
	for i := 0; i < len(t); i++ {
		c := t[i]
		opens := func(j int) bool {
			return j+1 < len(t) && (t[j].B == '#' || t[j].B == '$') && t[j+1].B == '{'
		}
		if c.B == '\\' && opens(i+1) {
			out = append(out, t[i+1], t[i+2])
			i += 2
			continue
		}
		if !opens(i) {
			out = append(out, c)
			continue
		}
		end := -1
		for j := i + 2; j < len(t); j++ {
			if t[j].B == '}' {
				end = j
				break
			}
		}
		if end < 0 {
			out = append(out, t[i:]...)
			break
		}
		expr := strings.TrimSpace(t[i+2 : end].String())
		if k := mybatisxml.PlusWrapperSegment(expr); c.B == '$' && k != mybatisxml.PlusNone {
			// A MyBatis-Plus wrapper's segment (xml_mpsegment.go).
			callerWhere = callerWhere || k == mybatisxml.PlusWhere || k == mybatisxml.PlusCondition
			names = mybatisxml.Unbound(names, mybatisxml.PlusStandIn(k))
			for j := 0; j < len(mybatisxml.PlusStandIn(k)); j++ {
				out = append(out, java.Char{B: mybatisxml.PlusStandIn(k)[j], Line: c.Line, Col: c.Col})
			}
			i = end
			continue
		}
		if c.B == '$' {
			dollars = append(dollars, stmt.Dollar{Expr: expr, Line: c.Line, Col: c.Col})
			names = append(names, "")
		} else {
			names = append(names, mybatisxml.ValueName(expr))
		}
		out = append(out, java.Char{B: '?', Line: c.Line, Col: c.Col})
		i = end
	}
	return out, dollars, callerWhere, names
}
