package schema

import (
	"testing"

	"github.com/guard-sql/guard/internal/sqlparse"
)

func splitDDL(t *testing.T, text string) []DDL {
	t.Helper()
	return statementsOf(sqlparse.NewParser(), "x.sql", text, false)
}
