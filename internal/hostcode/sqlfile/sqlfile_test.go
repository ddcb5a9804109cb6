package sqlfile

import (
	"strings"
	"testing"
)

// A byte order mark is not part of the first statement, and columns of the
// first line count from after it, as an editor shows them.
func TestExtractSQLDropsByteOrderMark(t *testing.T) {
	for name, src := range map[string]string{
		"bom":      "\ufeffCREATE TABLE t (id INT);\r\n-- guard:ignore GQ007 fine\r\nSELECT 1;\r\n",
		"no bom":   "CREATE TABLE t (id INT);\r\n-- guard:ignore GQ007 fine\r\nSELECT 1;\r\n",
		"bom only": "\ufeff",
	} {
		f := ExtractSQL("f.sql", []byte(src))
		sql := f.Fragments[0].SQL
		if strings.Contains(sql, "\ufeff") || sql != strings.TrimPrefix(src, "\ufeff") {
			t.Errorf("%s: fragment SQL = %q", name, sql)
		}
		if name != "bom only" && (len(f.Suppressions) != 1 || f.Suppressions[0].Line != 2 || f.Suppressions[0].Col != 1) {
			t.Errorf("%s: suppressions = %+v, want one at 2:1", name, f.Suppressions)
		}
	}
}
