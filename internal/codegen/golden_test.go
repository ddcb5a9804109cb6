package codegen

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files and the checked-in e2e package")

// goldenCase is one folder of testdata: migrations (and a policies.toml)
// in, the generated package in want/.
type goldenCase struct {
	dir, table, pkg string
	// metrics is Options.Metrics.
	metrics string
}

var goldenCases = []goldenCase{
	// The contract's table: counter, state, version, nullable and time columns.
	{dir: "inventory", table: "t_inventory", pkg: "inventorydao"},
	// Custom policy: strip_prefix, [[table]] counters and states, [lock]
	// defaults, initialisms, an integer state, a nullable counter, JSON,
	// BLOB, DOUBLE and DATE columns, an INT primary key.
	{dir: "account", table: "tbl_user_account", pkg: "accountdao"},
	// A primary key without AUTO_INCREMENT, no counter, two states (one
	// nullable), the version added by a later migration.
	{dir: "order", table: "t_order", pkg: "orderdao"},
}

// e2ePackage is the checked-in copy of the inventory case that the
// integration tests run against.
const e2ePackage = "e2e/inventorydao"

// renderCase generates the package of a golden case.
func renderCase(t *testing.T, c goldenCase, pkg string) map[string][]byte {
	t.Helper()
	dir := filepath.Join("testdata", c.dir)
	s, replay, err := schema.LoadMigrations(filepath.Join(dir, "migrations"))
	if err != nil || len(replay) > 0 {
		t.Fatalf("load %s: %v %v", dir, err, replay)
	}
	pol := policy.Default()
	if _, err := os.Stat(filepath.Join(dir, "policies.toml")); err == nil {
		if pol, err = policy.Load(filepath.Join(dir, "policies.toml")); err != nil {
			t.Fatal(err)
		}
	}
	table := s.Table(c.table)
	if table == nil {
		t.Fatalf("%s: no table %s", dir, c.table)
	}
	data, err := NewData(table, Options{Package: pkg, Policy: pol, Metrics: c.metrics})
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	files, err := Render(data)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return files
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.dir, func(t *testing.T) {
			files := renderCase(t, c, c.pkg)
			compareDir(t, filepath.Join("testdata", c.dir, "want"), files, func(string, []byte) bool { return true })
		})
	}
}

// e2eCase is the inventory case with the Prometheus metrics, as the e2e
// package is generated (its go:generate line passes --metrics prometheus).
func e2eCase() goldenCase {
	c := goldenCases[0]
	c.metrics = MetricsPrometheus
	return c
}

// TestE2EPackageUpToDate fails when the checked-in e2e package differs from
// what the templates produce (regenerate with -update or go generate).
func TestE2EPackageUpToDate(t *testing.T) {
	files := renderCase(t, e2eCase(), "inventorydao")
	compareDir(t, e2ePackage, files, func(_ string, b []byte) bool {
		return bytes.HasPrefix(b, []byte(Header))
	})
}

// compareDir compares files with the files of dir that owned selects, or
// rewrites dir with -update (removing the selected files no longer made).
func compareDir(t *testing.T, dir string, files map[string][]byte, owned func(name string, content []byte) bool) {
	t.Helper()
	existing := map[string][]byte{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if owned(e.Name(), b) {
			existing[e.Name()] = b
		}
	}
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name := range existing {
			if _, ok := files[name]; !ok {
				os.Remove(filepath.Join(dir, name))
			}
		}
		for name, b := range files {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if d := cmp.Diff(sortedKeys(existing), sortedKeys(files)); d != "" {
		t.Errorf("%s: files differ (-have +generated; run go test ./internal/codegen -update):\n%s", dir, d)
	}
	for name, b := range files {
		if want, ok := existing[name]; ok {
			if d := cmp.Diff(string(want), string(b)); d != "" {
				t.Errorf("%s/%s differs (-have +generated; run go test ./internal/codegen -update):\n%s", dir, name, d)
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestSharedFilesAgree renders two tables into one package: the shared
// files must come out byte for byte the same, so that generating the second
// table rewrites them unchanged.
func TestSharedFilesAgree(t *testing.T) {
	a := renderCase(t, goldenCases[0], "shop")
	b := renderCase(t, goldenCases[2], "shop")
	for _, name := range sortedKeys(sharedFilesSet()) {
		if d := cmp.Diff(string(a[name]), string(b[name])); d != "" {
			t.Errorf("%s differs between two tables of one package:\n%s", name, d)
		}
	}
	if _, ok := a["inventory_dao.go"]; !ok {
		t.Errorf("inventory file missing: %v", sortedKeys(a))
	}
	if _, ok := b["order_dao.go"]; !ok {
		t.Errorf("order file missing: %v", sortedKeys(b))
	}
}

func sharedFilesSet() map[string]bool {
	out := map[string]bool{}
	for _, f := range sharedFiles {
		out[f] = true
	}
	return out
}

// TestGeneratedShape checks the contract of DESIGN §7 in the inventory
// DAO's text, so that a template edit that drops a method or an error
// fails here with a clear message before the compile test.
func TestGeneratedShape(t *testing.T) {
	files := renderCase(t, goldenCases[0], "inventorydao")
	all := ""
	for _, name := range sortedKeys(files) {
		all += string(files[name])
	}
	for _, want := range []string{
		"type Inventory struct {",
		"ID          int64          `db:\"id\"`",
		"Version     int64          `db:\"version\"`",
		"func NewInventoryDAO(db *sqlx.DB, rdb redis.UniversalClient, opts ...Option) *InventoryDAO",
		"func (d *InventoryDAO) Get(ctx context.Context, id int64) (*Inventory, error)",
		"func (d *InventoryDAO) DeductInventory(ctx context.Context, id int64, n int64) error",
		"func (d *InventoryDAO) DeductInventoryLocked(ctx context.Context, id int64, n int64) error",
		"func (d *InventoryDAO) UpdateCAS(ctx context.Context, m *Inventory) error",
		"func (d *InventoryDAO) TransitionStatus(ctx context.Context, id int64, from, to string) error",
		"func (d *InventoryDAO) UpdateLocked(ctx context.Context, id int64, fn func(ctx context.Context, m *Inventory) error) error",
		"func (d *InventoryDAO) UpdateLockedTx(ctx context.Context, id int64, fn func(ctx context.Context, tx *sqlx.Tx, m *Inventory) error) error",
		"ErrDuplicate = ", "ErrCheckViolated = ", "errnoDuplicate    = 1062", "errnoCheckMySQL   = 3819", "errnoCheckMariaDB = 4025",
		"func WithMaxLease(d time.Duration) Option", "const maxLeaseFactor = 10",
		"ErrNotFound = ", "ErrInsufficient = ", "ErrConflict = ", "ErrLockNotAcquired = ", "ErrLockLost = ", "ErrStateChanged = ",
		"func WithLockTTL(", "func WithLockWait(", "func WithMaxAttempts(", "func WithBackoff(min, max time.Duration) Option", "func WithMetrics(m Metrics) Option",
		"func WithTable(name string) Option", "newLocker(rdb, table, o)", "d.stmts.Rebind(sqlInventoryDeductInventoryCAS)",
		"DefaultLockTTL     = 3 * time.Second", "DefaultLockWait    = 500 * time.Millisecond",
		"return fmt.Sprintf(\"lock:%s:%d\", l.table, id)",
		"SetNX(ctx, key, token, l.ttl)",
		"h.l.ttl / 3",
		"`inventory` = `inventory` - ?, `version` = `version` + 1 WHERE `id` = ? AND `version` = ? AND `inventory` >= ?",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("generated inventory DAO lacks %q", want)
		}
	}
	for name, b := range files {
		if !bytes.HasPrefix(b, []byte(Header+"\n")) {
			t.Errorf("%s does not start with the generated header", name)
		}
		for _, imp := range importsOf(t, name, b) {
			if !allowedImport(imp) {
				t.Errorf("%s imports %s: generated code may use only the standard library, sqlx and go-redis v9", name, imp)
			}
		}
	}
}

func allowedImport(path string) bool {
	if path == "github.com/jmoiron/sqlx" || path == "github.com/redis/go-redis/v9" {
		return true
	}
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
