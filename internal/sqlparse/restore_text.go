package sqlparse

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/format"
)

// RestoreText prints a node like Restore but leaves out the default character
// set introducer of string literals ('paid', not _UTF8MB4'paid'): the form
// messages quote back to the user.
func RestoreText(n Node) string {
	var sb strings.Builder
	flags := format.RestoreStringSingleQuotes | format.RestoreKeyWordUppercase | format.RestoreNameBackQuotes |
		format.RestoreNameLowercase | format.RestoreStringWithoutDefaultCharset
	if err := n.Restore(format.NewRestoreCtx(flags, &sb)); err != nil {
		return ""
	}
	return sb.String()
}
