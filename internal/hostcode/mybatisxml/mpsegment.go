package mybatisxml

import "strings"

// MyBatis-Plus passes a query wrapper to a mapper XML statement as the
// parameter ew (Constants.WRAPPER), whose segments the XML pastes:
// `SELECT ${ew.sqlSelect} FROM t ${ew.customSqlSegment}`. The wrapper
// renders them from the caller's chain, with every value bound as a
// #{ew.paramNameValuePairs…} placeholder: they are SQL of the caller's
// making, not a raw string of the request, and the WHERE they make is the
// caller's (as a generated Example's is).

// PlusSegment is the kind of wrapper segment a substitution pastes.
type PlusSegment int

const (
	PlusNone PlusSegment = iota
	// PlusWhere is customSqlSegment: "WHERE …", ORDER BY and the rest, or
	// nothing.
	PlusWhere
	// PlusCondition is sqlSegment: the conditions without the keyword.
	PlusCondition
	// PlusSelect is sqlSelect: the column list.
	PlusSelect
	// PlusSet is sqlSet: the SET list of an UpdateWrapper.
	PlusSet
	// PlusNote is sqlComment or sqlFirst: a comment or a hint.
	PlusNote
)

// plusSegments maps the wrapper's properties, and their getters, to kinds.
var plusSegments = map[string]PlusSegment{
	"customSqlSegment": PlusWhere, "getCustomSqlSegment": PlusWhere,
	"sqlSegment": PlusCondition, "getSqlSegment": PlusCondition,
	"sqlSelect": PlusSelect, "getSqlSelect": PlusSelect,
	"sqlSet": PlusSet, "getSqlSet": PlusSet,
	"sqlComment": PlusNote, "getSqlComment": PlusNote,
	"sqlFirst": PlusNote, "getSqlFirst": PlusNote,
}

// PlusWrapperSegment returns the kind of segment ${expr} pastes: ew.X or
// ew.getX() of one of plusSegments, else PlusNone.
func PlusWrapperSegment(expr string) PlusSegment {
	prop, ok := strings.CutPrefix(expr, "ew.")
	if !ok {
		return PlusNone
	}
	prop = strings.TrimSuffix(prop, "()")
	return plusSegments[prop]
}

// PlusStandIn is the SQL that stands in for a segment: it parses and claims
// nothing of the caller's columns (a name no table has, placeholders).
func PlusStandIn(k PlusSegment) string {
	switch k {
	case PlusWhere:
		return "WHERE ? = ?"
	case PlusCondition:
		return "? = ?"
	case PlusSelect:
		return "`ew.sqlSelect`"
	case PlusSet:
		return "`ew.sqlSet` = ?"
	}
	return ""
}
