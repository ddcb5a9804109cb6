package sqlparse

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// OnlineAlter splits an ALTER TABLE statement for an online schema change
// tool such as pt-online-schema-change, which runs the alter specifications
// on its own copy of the table: the schema (empty when not written) and the
// name of the table, and the text of the specifications as written, after
// the table name (an ALGORITHM or LOCK option there applies to the copy,
// empty when it runs). n is text parsed. ok is false for any other
// statement, for one that renames the table, and for one without a
// specification.
func OnlineAlter(text string, n StmtNode) (schema, table, alter string, ok bool) {
	st, isAlter := n.(*ast.AlterTableStmt)
	if !isAlter || st.Table == nil || len(st.Specs) == 0 {
		return "", "", "", false
	}
	for _, spec := range st.Specs {
		if spec.Tp == ast.AlterTableRenameTable {
			return "", "", "", false
		}
	}
	toks := scriptTokens(text)
	i := 0
	if i < len(toks) && toks[i].upper() == "ALTER" {
		i++
	}
	for i < len(toks) && (toks[i].upper() == "ONLINE" || toks[i].upper() == "IGNORE") {
		i++
	}
	if i >= len(toks) || toks[i].upper() != "TABLE" {
		return "", "", "", false
	}
	i++
	if i+1 < len(toks) && toks[i].upper() == "IF" && toks[i+1].upper() == "EXISTS" {
		i += 2
	}
	schema, table, next, found := readName(toks, i)
	if !found || !strings.EqualFold(table, st.Table.Name.O) {
		return "", "", "", false
	}
	alter = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text[toks[next-1].end:]), ";"))
	return schema, table, alter, alter != ""
}
