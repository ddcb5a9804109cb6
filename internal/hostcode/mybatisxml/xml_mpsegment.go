package source

import "strings"

// MyBatis-Plus passes a query wrapper to a mapper XML statement as the
// parameter ew (Constants.WRAPPER), whose segments the XML pastes:
// `SELECT ${ew.sqlSelect} FROM t ${ew.customSqlSegment}`. The wrapper
// renders them from the caller's chain, with every value bound as a
// #{ew.paramNameValuePairs…} placeholder: they are SQL of the caller's
// making, not a raw string of the request, and the WHERE they make is the
// caller's (as a generated Example's is).

// mpSegment is the kind of wrapper segment a substitution pastes.
type mpSegment int

const (
	mpNone mpSegment = iota
	// mpWhere is customSqlSegment: "WHERE …", ORDER BY and the rest, or
	// nothing.
	mpWhere
	// mpCondition is sqlSegment: the conditions without the keyword.
	mpCondition
	// mpSelect is sqlSelect: the column list.
	mpSelect
	// mpSet is sqlSet: the SET list of an UpdateWrapper.
	mpSet
	// mpNote is sqlComment or sqlFirst: a comment or a hint.
	mpNote
)

// mpSegments maps the wrapper's properties, and their getters, to kinds.
var mpSegments = map[string]mpSegment{
	"customSqlSegment": mpWhere, "getCustomSqlSegment": mpWhere,
	"sqlSegment": mpCondition, "getSqlSegment": mpCondition,
	"sqlSelect": mpSelect, "getSqlSelect": mpSelect,
	"sqlSet": mpSet, "getSqlSet": mpSet,
	"sqlComment": mpNote, "getSqlComment": mpNote,
	"sqlFirst": mpNote, "getSqlFirst": mpNote,
}

// mpWrapperSegment returns the kind of segment ${expr} pastes: ew.X or
// ew.getX() of one of mpSegments, else mpNone.
func mpWrapperSegment(expr string) mpSegment {
	prop, ok := strings.CutPrefix(expr, "ew.")
	if !ok {
		return mpNone
	}
	prop = strings.TrimSuffix(prop, "()")
	return mpSegments[prop]
}

// mpStandIn is the SQL that stands in for a segment: it parses and claims
// nothing of the caller's columns (a name no table has, placeholders).
func mpStandIn(k mpSegment) string {
	switch k {
	case mpWhere:
		return "WHERE ? = ?"
	case mpCondition:
		return "? = ?"
	case mpSelect:
		return "`ew.sqlSelect`"
	case mpSet:
		return "`ew.sqlSet` = ?"
	}
	return ""
}
