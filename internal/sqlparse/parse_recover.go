package sqlparse

import (
	"fmt"

	"github.com/pingcap/tidb/pkg/parser"
)

// parse runs the TiDB parser and turns its panics into errors. Some inputs
// reach code the parser leaves unimplemented without a TiDB server (a decimal
// literal of more than 81 digits panics in the test driver); a lint run must
// report such a statement, not crash. After a panic the parser is replaced,
// since its internal state is unknown.
func (p *Parser) parse(sql string) (stmts []StmtNode, err error) {
	defer func() {
		if r := recover(); r != nil {
			stmts, err = nil, &Error{Line: 1, Column: 1, Msg: fmt.Sprintf("the SQL parser failed on this statement: %v", r)}
			np := parser.New()
			np.EnableWindowFunc(true)
			p.p = np
		}
	}()
	stmts, _, err = p.p.Parse(sql, "", "")
	return stmts, err
}
