package inventorydao

// The other .go files of this package, but the tests, are generated from
// the inventory golden case of internal/codegen; its tests fail when they
// are out of date. Regenerate with go generate, or go test ./internal/codegen -update.
//go:generate go run ../../../../cmd/guard gen dao --table t_inventory --schema ../../testdata/inventory/migrations --out . --package inventorydao --metrics prometheus
