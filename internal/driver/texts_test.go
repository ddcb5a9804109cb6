package driver

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint/rules"
)

// TestEachFileReadOnce counts the reads of a run: the indexers of entity
// classes and models, the extraction, a goctl model's package, the
// migrations, --schema and the second judgement of a file all share one
// read of each file. The example shop has every kind of source (Java with
// MyBatis-Plus entities and JPA repositories, Go with GORM models and a
// goctl model whose statements name its generated neighbour, mapper XML,
// .sql scripts and migrations), and the rule fixtures the rest.
func TestEachFileReadOnce(t *testing.T) {
	var mu sync.Mutex
	reads := map[string]int{}
	readFile = func(p string) ([]byte, error) {
		abs, err := filepath.Abs(p)
		if err != nil {
			t.Error(err)
		}
		mu.Lock()
		reads[abs]++
		mu.Unlock()
		return os.ReadFile(p)
	}
	t.Cleanup(func() { readFile = os.ReadFile })
	fixtures, err := filepath.Glob("../../lint/rules/testdata/G*")
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("rule fixtures: %v", err)
	}
	runs := []Config{
		{Paths: []string{"../../examples/shop"}},
		{Paths: []string{"../../examples/shop"}, SchemaPath: "../../examples/shop/migrations"},
		{Paths: []string{"../../examples/shop/src", "../../examples/shop/gozero"}, SchemaPath: "../../examples/shop/migrations"},
		{Paths: fixtures},
	}
	for _, cfg := range runs {
		clear(reads)
		cfg.Policy, cfg.Rules, cfg.Learn = policy.Default(), rules.All(), rules.Learn
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(reads) < res.Summary.Files {
			t.Errorf("%v: %d files read, %d linted", cfg.Paths, len(reads), res.Summary.Files)
		}
		for p, n := range reads {
			if n > 1 {
				t.Errorf("%v (schema %q): %s read %d times", cfg.Paths, cfg.SchemaPath, p, n)
			}
		}
	}
}
