package mybatisxml

import (
	"fmt"
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// MyBatis Generator (MBG) writes mappers whose ${…} are not what they look
// like. Its Example where clauses paste `${criterion.condition}`, a string
// such as "stock >=" that the generated Criteria class composes from its
// own constants; its column enums (`${column.escapedColumnName}`) are column
// names; only `${orderByClause}` is a string the caller sets, and a constant
// unless some caller passes another. These helpers tell them apart and render
// each as SQL that parses and claims nothing: a placeholder where the
// caller's criterion goes, a name no table has where a column goes.

// mbExampleWhereIDs are the <sql> elements MBG writes for the WHERE of its
// ByExample statements: they render the Criteria of the Example object the
// caller passes. A mapper that defines one is taken as generated.
var mbExampleWhereIDs = map[string]bool{
	"Example_Where_Clause":           true,
	"Update_By_Example_Where_Clause": true,
}

// mbColumnEnumProps are the properties of the column enum that MBG plugins
// generate for selective statements: each yields the column's name.
var mbColumnEnumProps = map[string]bool{
	"escapedColumnName":        true,
	"aliasedEscapedColumnName": true,
	"value":                    true,
}

// isExampleWhere reports whether n is an Example where clause of a generated
// mapper.
func (m *mbMapper) isExampleWhere(n *mbNode) bool {
	return m.generated && n != nil && n.name == "sql" && mbExampleWhereIDs[n.attr("id")]
}

// includesExampleWhere reports whether statement n includes an Example where
// clause, directly or through other <sql> elements, in any of its variants.
// seen stops include cycles.
func (m *mbMapper) includesExampleWhere(n *mbNode, seen map[*mbNode]bool) bool {
	if !m.generated {
		return false
	}
	for _, k := range n.kids {
		if k.name != "include" {
			if m.includesExampleWhere(k, seen) {
				return true
			}
			continue
		}
		target := m.sqls[m.qualify(k.attr("refid"))]
		if target == nil || seen[target] {
			continue
		}
		if m.isExampleWhere(target) {
			return true
		}
		if seen == nil {
			seen = map[*mbNode]bool{}
		}
		seen[target] = true
		if m.includesExampleWhere(target, seen) {
			return true
		}
	}
	return false
}

// substitution renders ${expr}, which no include property binds: the text
// that stands in its place, and the Dollar to record, nil for a constant.
func (r *mbRender) substitution(expr string) (string, *stmt.Dollar) {
	if k := PlusWrapperSegment(expr); k != PlusNone {
		if k == PlusWhere || k == PlusCondition {
			r.callerWhere = true
		}
		return PlusStandIn(k), nil
	}
	switch {
	case mbStaticField(expr):
		// An OGNL static field (`@com.x.Status@PAID`) is a constant of the
		// application's code, whatever mapper holds it.
		return "?", nil
	case r.exampleWhere > 0 && mbRoot(expr) == "criterion":
		return mbCriterion(expr, r.test), nil
	case r.m.generated && r.columnEnum(expr):
		// A quoted name no schema has: the column is one of the table's, but
		// which one is chosen at run time.
		return "`" + expr + "`", nil
	case r.m.generated:
		if p := mbCallerClause(expr); p != "" {
			return "?", &stmt.Dollar{Expr: expr, CallerSupplied: p}
		}
	}
	return "?", &stmt.Dollar{Expr: expr}
}

// mbCriterion renders an Example criterion's ${criterion.condition} (a
// column and an operator, or a whole predicate) as a predicate on
// placeholders, shaped by the test of the <when> around it so that the values
// bound after it still parse. No column appears: the rules see a condition
// the caller supplies, never a guard on a column of theirs.
func mbCriterion(expr, test string) string {
	if expr != "criterion.condition" {
		return "?"
	}
	switch {
	case strings.Contains(test, "criterion.singleValue"):
		return "? ="
	case strings.Contains(test, "criterion.betweenValue"):
		return "? BETWEEN"
	case strings.Contains(test, "criterion.listValue"):
		return "? IN"
	}
	return "?"
}

// columnEnum reports whether expr reads a column name from the item of an
// enclosing <foreach> over a generated column enum: `${column.escapedColumnName}`.
func (r *mbRender) columnEnum(expr string) bool {
	root, prop, ok := strings.Cut(expr, ".")
	if !ok || !mbColumnEnumProps[prop] {
		return false
	}
	for _, item := range r.items {
		if item == root {
			return true
		}
	}
	return false
}

// mbCallerClause returns the Example property a generated clause
// substitution reads — "orderByClause" for ${orderByClause} or
// ${example.orderByClause} — or "" when expr is not one.
func mbCallerClause(expr string) string {
	segs := strings.Split(expr, ".")
	if len(segs) > 2 || (len(segs) == 2 && segs[0] != "example") {
		return ""
	}
	last := segs[len(segs)-1]
	if !mbIdent(last) || len(last) <= len("Clause") || !strings.HasSuffix(last, "Clause") {
		return ""
	}
	return last
}

// mbStaticField reports whether expr is an OGNL reference to a static field,
// `@pkg.Class@FIELD`, optionally followed by properties or getters without
// arguments (`@pkg.Status@PAID.code`, `@pkg.Status@PAID.getCode()`). A
// static method call (`@pkg.Class@now()`) is not: its result may be
// anything.
func mbStaticField(expr string) bool {
	rest, ok := strings.CutPrefix(expr, "@")
	if !ok {
		return false
	}
	class, field, ok := strings.Cut(rest, "@")
	if !ok || !mbPath(class) {
		return false
	}
	// A field, then properties or getters called on it without arguments
	// (`@com.x.Status@PAID.getCode()`): a constant too.
	for i, seg := range strings.Split(field, ".") {
		if !mbIdent(seg) && (i == 0 || !mbIdent(strings.TrimSuffix(seg, "()"))) {
			return false
		}
	}
	return true
}

// mbPath reports whether s is identifiers joined by dots.
func mbPath(s string) bool {
	for _, seg := range strings.Split(s, ".") {
		if !mbIdent(seg) {
			return false
		}
	}
	return true
}

// mbIdent reports whether s is a Java identifier made of ASCII letters,
// digits, _ and $ ($ also joins a nested class to its outer class).
func mbIdent(s string) bool {
	if s == "" || ('0' <= s[0] && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '$') {
			return false
		}
	}
	return true
}

// mbRoot returns the variable an OGNL path starts from: "criterion" for
// "criterion.condition".
func mbRoot(expr string) string {
	root, _, _ := strings.Cut(expr, ".")
	return root
}

// mbDescribe names an element for a message: "<set> at line 12".
func mbDescribe(n *mbNode) string {
	return fmt.Sprintf("<%s> at line %d", n.name, n.line)
}

// exampleCriterionOps are the operator suffixes of the methods of a
// generated Criteria class, longest first so that GreaterThanOrEqualTo is
// not read as EqualTo.
var exampleCriterionOps = []string{
	"GreaterThanOrEqualTo", "LessThanOrEqualTo", "NotBetween", "NotEqualTo", "GreaterThan",
	"IsNotNull", "LessThan", "EqualTo", "Between", "NotLike", "IsNull", "NotIn", "Like", "In",
}

// ExampleCriterion reads the name of a method of a generated Criteria
// class, which adds the condition its Example where clause renders:
// andLockStockGreaterThan is lockStock GreaterThan.
func ExampleCriterion(method string) (stmt.Criterion, bool) {
	rest, ok := strings.CutPrefix(method, "and")
	if !ok || rest == "" {
		return stmt.Criterion{}, false
	}
	for _, op := range exampleCriterionOps {
		if p, ok := strings.CutSuffix(rest, op); ok && p != "" {
			return stmt.Criterion{Property: strings.ToLower(p[:1]) + p[1:], Op: op}, true
		}
	}
	return stmt.Criterion{}, false
}

// CriterionOp reports whether op is the operator suffix of a Criteria
// method (EqualTo of andEqualTo, andStatusEqualTo).
func CriterionOp(op string) bool { return slices.Contains(exampleCriterionOps, op) }

// GeneratedCalls are the write methods MyBatis Generator gives every
// mapper whose Java calls guard follows (stmt.MapperCall), with the
// positions of their record and Example arguments (-1: none); their
// statements in the generated mapper XML have the same ids.
var GeneratedCalls = map[string][2]int{
	"updateByPrimaryKey":          {0, -1},
	"updateByPrimaryKeySelective": {0, -1},
	"updateByExample":             {0, 1},
	"updateByExampleSelective":    {0, 1},
	"deleteByExample":             {-1, 0},
}
