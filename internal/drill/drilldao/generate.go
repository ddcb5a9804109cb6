package drilldao

// The other .go files of this package are generated from the canonical drill
// table; internal/drill's tests fail when they are out of date. Regenerate
// with go generate.
//go:generate go run ../../../cmd/guard gen dao --table guard_drill --schema ../testdata/drill_table.up.sql --out . --package drilldao
