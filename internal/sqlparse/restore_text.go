package sqlparse

import (
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
)

// RestoreText prints a node like Restore but leaves out the default character
// set introducer of string literals ('paid', not _UTF8MB4'paid'): the form
// messages quote back to the user. A placeholder and a whole number, which
// most quoted amounts are, are printed as Restore prints them without
// building its printer.
func RestoreText(n Node) string {
	switch x := n.(type) {
	case *test_driver.ParamMarkerExpr:
		return "?"
	case *test_driver.ValueExpr:
		switch x.Kind() {
		case test_driver.KindInt64:
			if x.Type.GetFlag()&mysql.IsBooleanFlag == 0 {
				return strconv.FormatInt(x.GetInt64(), 10)
			}
		case test_driver.KindUint64:
			return strconv.FormatUint(x.GetUint64(), 10)
		}
	}
	return restore(n, format.RestoreStringWithoutDefaultCharset)
}
