package migrator

import (
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// KindFits is the check that the existing values of a column fit the
// narrower type a MODIFY or CHANGE gives it: a shorter CHAR/VARCHAR, a
// smaller integer, signed to unsigned, a DECIMAL with fewer integer digits.
// Under guard's strict sql_mode a value that does not fit makes the ALTER
// fail (error 1265 or 1264) after copying part of the table, so preflight
// counts those rows first. It is a probe only: nothing is verified after.
const KindFits = "fits"

// narrowing returns the condition that holds for the rows of live column
// col whose value does not fit now, and whether now is narrower at all:
// sqlparse.Breaches, which guard lint's GM007 names too. A breach the
// server only rounds (fewer decimals) is not counted: it never fails.
func narrowing(col *schema.Column, now sqlparse.ColumnType) (string, bool) {
	bs, _ := sqlparse.Breaches(liveType(col), now, quote(col.Name))
	var conds []string
	for _, b := range bs {
		if !b.Rounds {
			conds = append(conds, b.Where)
		}
	}
	return strings.Join(conds, " OR "), len(conds) > 0
}

// liveType reads a live column's COLUMN_TYPE ("decimal(12,2) unsigned",
// "enum('a','b')") as the parser reads a definition; the base type alone
// when it does not parse.
func liveType(c *schema.Column) sqlparse.ColumnType {
	if ct, ok := sqlparse.NewParser().ColumnType(c.ColumnType); ok {
		return ct
	}
	return sqlparse.ColumnType{Name: c.Type, Unsigned: c.Unsigned, Length: -1, Scale: -1}
}
