package plan

import (
	"fmt"
	"testing"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
)

func TestScratchShop(t *testing.T) {
	off, err := LoadDirs("../../examples/shop/migrations")
	if err != nil {
		t.Fatal(err)
	}
	steps := Plan(off.Schema, policy.Default(), schema.ParseServer("10.6.0-MariaDB"), Options{})
	for _, f := range Files(steps, 7, 6) {
		fmt.Printf("=== %s\n%s", f.Name, f.Data)
	}
	mode := "NO_ENGINE_SUBSTITUTION"
	steps = Plan(off.Schema, policy.Default(), schema.ParseServer("5.7.40"), Options{GlobalSQLMode: &mode})
	for _, f := range Files(steps, 7, 6) {
		fmt.Printf("=== %s\n%s", f.Name, f.Data)
	}
}
