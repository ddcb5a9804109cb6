// Package templates holds the text/template sources of guard gen. They are
// embedded in the guard binary; `guard gen templates --out DIR` writes them
// out for customisation and `--templates DIR` uses the customised set.
//
// The templates of Go files render one table's DAO (dao.go.tmpl) and the
// files every generated package shares (errors, options, metrics, lock,
// hot-row combining);
// the .sql templates render the migration of `guard gen table`.
package templates

import "embed"

// FS holds every *.tmpl file of this folder.
//
//go:embed *.tmpl
var FS embed.FS
