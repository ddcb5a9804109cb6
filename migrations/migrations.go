// Package migrations holds guard's reference migrations: the files `guard
// plan` writes for the example shop (examples/shop/migrations), which add the
// version column and the CHECK its inventory table lacks and the UNIQUE index
// its order numbers lack, one statement per file. They are numbered to follow
// the shop's own migrations. Regenerate them from the repository root with
//
//	rm migrations/*.sql && go run ./cmd/guard plan --dir examples/shop/migrations --out migrations
package migrations

import "embed"

// FS holds the reference migration files, NNNNNN_guard_<table>_<what>.up.sql
// and .down.sql, at its root.
//
//go:embed *.sql
var FS embed.FS
