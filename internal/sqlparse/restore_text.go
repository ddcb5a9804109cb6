package sqlparse

import "github.com/pingcap/tidb/pkg/parser/format"

// RestoreText prints a node like Restore but leaves out the default character
// set introducer of string literals ('paid', not _UTF8MB4'paid'): the form
// messages quote back to the user.
func RestoreText(n Node) string {
	return restore(n, format.RestoreStringWithoutDefaultCharset)
}
