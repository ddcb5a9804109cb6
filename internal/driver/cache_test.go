package driver_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/lintcache"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/report"
	"github.com/guard-sql/guard/internal/testtree"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

// rendered is a run's outcome as the user sees it: the reports in text and
// JSON, or the error.
type rendered struct {
	res             *lint.Result
	text, json, err string
}

func lintOnce(t *testing.T, cfg driver.Config) rendered {
	t.Helper()
	res, err := driver.Run(cfg)
	if err != nil {
		return rendered{err: err.Error()}
	}
	var text, js bytes.Buffer
	if err := report.Write(&text, "text", res, report.Options{Version: "test"}); err != nil {
		t.Fatal(err)
	}
	if err := report.Write(&js, "json", res, report.Options{Version: "test"}); err != nil {
		t.Fatal(err)
	}
	return rendered{res: res, text: text.String(), json: js.String()}
}

// printingOutput keeps a run's text report in the cache as guard lint
// keeps what it prints (driver.Output), under the run's key.
type printingOutput struct {
	c      *lintcache.Cache
	key    lintcache.Key
	keep   bool
	served bytes.Buffer
}

func (o *printingOutput) Serve(k lintcache.Key) bool {
	_, ok, err := o.c.ServeReport(k, &o.served, io.Discard)
	return ok && err == nil
}

func (o *printingOutput) Keep(k lintcache.Key) { o.key, o.keep = k, true }

// lintPrinting is a run with a printingOutput: the text it serves, or the
// text report of its result, kept when the run says it may be.
func lintPrinting(t *testing.T, cfg driver.Config) string {
	t.Helper()
	o := &printingOutput{c: cfg.Cache}
	cfg.Output = o
	res, err := driver.Run(cfg)
	if errors.Is(err, driver.ErrServed) {
		return o.served.String()
	}
	if err != nil {
		return err.Error()
	}
	var text bytes.Buffer
	if err := report.Write(&text, "text", res, report.Options{Version: "test"}); err != nil {
		t.Fatal(err)
	}
	if o.keep {
		e := o.c.Create(lintcache.KindReport, o.key)
		lintcache.StartReport(e, 0, "")
		e.Write(text.Bytes())
		e.Commit()
	}
	return text.String()
}

// sameAs fails t when got, a run with the cache, differs from want, the
// run without it.
func sameAs(t *testing.T, step string, want, got rendered) {
	t.Helper()
	if got.err != want.err {
		t.Fatalf("%s: error with the cache %q, without %q", step, got.err, want.err)
	}
	if d := cmp.Diff(want.text, got.text); d != "" {
		t.Fatalf("%s: the text report differs with the cache (-without +with):\n%s", step, d)
	}
	if want.json != got.json {
		t.Fatalf("%s: the JSON report differs with the cache:\n%s", step, cmp.Diff(want.json, got.json))
	}
	if d := cmp.Diff(want.res, got.res); d != "" {
		t.Fatalf("%s: the result differs with the cache (-without +with):\n%s", step, d)
	}
}

// The texts the random edits write: statements that make the inference
// decide a column otherwise (a decrement makes a counter, a conditioned
// UPDATE a state), findings of most rules, suppressions with and without a
// reason, tables a .sql source creates, and text that does not parse. The
// host files added write t_widget's columns absolutely, which the rules
// judge by what the .sql sources make of them.
var (
	sqlLines = []string{
		"UPDATE t_widget SET spare = spare - 1 WHERE id = 7;",
		"UPDATE t_widget SET spare = 5 WHERE id = 8;",
		"UPDATE t_widget SET status = 'DONE' WHERE id = ? AND status = 'OPEN';",
		"UPDATE t_wallet SET points = points - ? WHERE user_id = ?;",
		"UPDATE t_wallet SET points = 10 WHERE user_id = 1;",
		"UPDATE t_coupon_grant SET state = 2 WHERE id = ? AND state = 1;",
		"UPDATE t_coupon_grant SET state = 3 WHERE id = 9;",
		"UPDATE t_product SET stock = stock - ? WHERE id = ?;",
		"UPDATE t_inventory SET inventory = 0;",
		"SELECT available_stock FROM t_sku_stock WHERE id = 1 FOR UPDATE;",
		"INSERT INTO t_wallet (user_id, balance) VALUES (1, 0) ON DUPLICATE KEY UPDATE balance = balance + 1;",
		"CREATE TABLE t_widget (id BIGINT PRIMARY KEY, spare INT NOT NULL, status VARCHAR(16) NOT NULL);",
		"-- guard:ignore GQ002 refilled by the nightly job",
		"-- guard:ignore GQ003",
		"DELETE FROM t_payment;",
		"this is not sql at all;",
	}
	migrationTexts = []string{
		"ALTER TABLE t_wallet ADD COLUMN spare INT NOT NULL DEFAULT 0;",
		"ALTER TABLE t_sku_stock DROP COLUMN locked_stock;",
		"CREATE TABLE t_widget (id BIGINT PRIMARY KEY, spare INT NOT NULL, version INT NOT NULL DEFAULT 0);",
		"ALTER TABLE t_product ADD CONSTRAINT chk_stock CHECK (stock >= 0);",
		"ALTER TABLE t_inventory RENAME COLUMN inventory TO quantity;",
	}
	newFiles = map[string]string{
		".sql":  "UPDATE t_widget SET spare = spare - 2 WHERE id = 1;\nUPDATE t_wallet SET balance = balance - 1 WHERE user_id = 2;\n",
		".go":   "package dao\n\nimport \"database/sql\"\n\nfunc Put(db *sql.DB, id int64, n int) error {\n\t_, err := db.Exec(\"UPDATE t_widget SET spare = ? WHERE id = ?\", n, id)\n\treturn err\n}\n",
		".java": "package com.example.x;\n\nimport org.apache.ibatis.annotations.Update;\n\npublic interface WidgetMapper {\n    @Update(\"UPDATE t_widget SET spare = #{n} WHERE id = #{id}\")\n    int put(long id, int n);\n}\n",
		".xml":  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<mapper namespace=\"com.example.x.WidgetMapper\">\n  <update id=\"put\">UPDATE t_widget SET status = #{s} WHERE id = #{id}</update>\n</mapper>\n",
	}
	hostSwaps = [][2]string{{"stock", "quantity"}, {" - ", " + "}, {">=", "<"}, {"status", "state"}, {"version", "revision"}, {"1", "2"}}
)

// mutator edits a tree at random, one change a step.
type mutator struct {
	t    *testing.T
	root string
	rng  *rand.Rand
	n    int
}

func (m *mutator) files(exts ...string) []string {
	var out []string
	filepath.WalkDir(m.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (len(exts) == 0 || slices.Contains(exts, strings.ToLower(filepath.Ext(p)))) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func (m *mutator) pick(ps []string) string {
	if len(ps) == 0 {
		return ""
	}
	return ps[m.rng.IntN(len(ps))]
}

func (m *mutator) lines(p string) []string {
	b, _ := os.ReadFile(p)
	return strings.Split(string(b), "\n")
}

func (m *mutator) write(p string, lines []string) {
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		m.t.Fatal(err)
	}
}

// step makes one random change and says what it was.
func (m *mutator) step() string {
	m.n++
	switch k := m.rng.IntN(10); {
	case k < 3: // edit a .sql source or a migration
		p := m.pick(m.files(".sql"))
		if p == "" {
			break
		}
		ls := m.lines(p)
		at := m.rng.IntN(len(ls) + 1)
		if strings.Contains(p, ".up.sql") {
			ls = slices.Insert(ls, at, migrationTexts[m.rng.IntN(len(migrationTexts))])
		} else if m.rng.IntN(4) == 0 && len(ls) > 1 {
			ls = slices.Delete(ls, at%len(ls), at%len(ls)+1)
		} else {
			ls = slices.Insert(ls, at, sqlLines[m.rng.IntN(len(sqlLines))])
		}
		m.write(p, ls)
		return "edit " + p
	case k < 5: // edit host code: a word swapped, a line dropped or doubled
		p := m.pick(m.files(".go", ".java", ".xml"))
		if p == "" {
			break
		}
		ls := m.lines(p)
		i := m.rng.IntN(len(ls))
		switch m.rng.IntN(3) {
		case 0:
			sw := hostSwaps[m.rng.IntN(len(hostSwaps))]
			ls[i] = strings.Replace(ls[i], sw[0], sw[1], 1)
		case 1:
			ls = slices.Delete(ls, i, i+1)
		default:
			ls = slices.Insert(ls, i, ls[i])
		}
		m.write(p, ls)
		return "edit " + p
	case k < 6: // add a file
		exts := []string{".sql", ".go", ".java", ".xml"}
		ext := exts[m.rng.IntN(len(exts))]
		dir := filepath.Dir(m.pick(m.files()))
		p := filepath.Join(dir, fmt.Sprintf("added%d%s", m.n, ext))
		if err := os.WriteFile(p, []byte(newFiles[ext]), 0o644); err != nil {
			m.t.Fatal(err)
		}
		return "add " + p
	case k < 7: // add a migration
		dirs := map[string]bool{}
		for _, p := range m.files(".sql") {
			if strings.HasSuffix(p, ".up.sql") {
				dirs[filepath.Dir(p)] = true
			}
		}
		for d := range dirs {
			p := filepath.Join(d, fmt.Sprintf("%06d_step.up.sql", 900+m.n))
			os.WriteFile(p, []byte(migrationTexts[m.rng.IntN(len(migrationTexts))]+"\n"), 0o644)
			return "add " + p
		}
	case k < 8: // rename a file
		p := m.pick(m.files())
		if p == "" || strings.Contains(p, ".up.sql") {
			break
		}
		to := filepath.Join(filepath.Dir(p), fmt.Sprintf("moved%d_%s", m.n, filepath.Base(p)))
		if err := os.Rename(p, to); err != nil {
			m.t.Fatal(err)
		}
		return "rename " + p + " " + to
	case k < 9: // delete a file, now and then every migration
		if m.rng.IntN(5) == 0 {
			for _, p := range m.files(".sql") {
				if strings.Contains(p, ".up.sql") || strings.Contains(p, ".down.sql") {
					os.Remove(p)
				}
			}
			return "delete the migrations"
		}
		p := m.pick(m.files())
		if p == "" {
			break
		}
		os.Remove(p)
		return "delete " + p
	default:
		return "nothing"
	}
	return "nothing"
}

// damage truncates or flips a random entry of the cache.
func damage(rng *rand.Rand, dir string) string {
	var entries []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != "CACHEDIR.TAG" {
			entries = append(entries, p)
		}
		return nil
	})
	if len(entries) == 0 {
		return "no entry to damage"
	}
	p := entries[rng.IntN(len(entries))]
	b, _ := os.ReadFile(p)
	if len(b) == 0 {
		return "empty entry"
	}
	if rng.IntN(2) == 0 {
		b = b[:rng.IntN(len(b))]
	} else {
		b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
	}
	os.WriteFile(p, b, 0o644)
	return "damaged " + filepath.Base(p)
}

// propertySteps is how many random changes each tree goes through;
// GUARD_CACHE_STEPS raises it, GUARD_CACHE_SEED replays one sequence.
func propertySteps(t *testing.T) (int, uint64) {
	steps := 40
	if s, err := strconv.Atoi(os.Getenv("GUARD_CACHE_STEPS")); err == nil {
		steps = s
	}
	seed := rand.Uint64()
	if s, err := strconv.ParseUint(os.Getenv("GUARD_CACHE_SEED"), 10, 64); err == nil {
		seed = s
	}
	t.Logf("GUARD_CACHE_SEED=%d GUARD_CACHE_STEPS=%d", seed, steps)
	return steps, seed
}

// TestCacheNeverChangesTheReport edits, adds, renames and deletes random
// files of a copy of the corpus and of the example shop (migrations and
// host code included), now and then damages an entry of the cache or
// changes the policy, and after each change compares the reports of a run
// with the cache, of a second one (which reads the whole result back) and
// of a run of another process sharing the folder with those of a run
// without it, byte for byte, text and JSON. Each tree is also linted whole
// as guard keeps a tree that small, by its result alone.
func TestCacheNeverChangesTheReport(t *testing.T) {
	defer driver.KeepEveryEntry()() // both trees are small: read back file by file all the same
	steps, seed := propertySteps(t)
	work := t.TempDir()
	t.Chdir(work) // paths in findings relative to the current directory, as guard lint prints them
	for i, tree := range []struct{ name, src string }{{"corpus", "testdata/corpus"}, {"shop", "../../examples/shop"}} {
		src := tree.src
		if !filepath.IsAbs(src) {
			src = filepath.Join(testdataRoot, src)
		}
		testtree.Copy(t, src, tree.name)
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		m := &mutator{t: t, root: tree.name, rng: rng}
		cacheDir := filepath.Join(work, "cache-"+tree.name)
		pol := policy.Default()
		for step := 0; step <= steps; step++ {
			what := "as it is"
			if step > 0 {
				what = m.step()
			}
			if step%7 == 6 {
				what += "; " + damage(rng, cacheDir)
			}
			if step%11 == 10 {
				pol = policy.Default()
				if rng.IntN(2) == 0 {
					off := false
					pol.Schema.Infer = &off
				}
				what += "; policy changed"
			}
			label := fmt.Sprintf("%s step %d (%s)", tree.name, step, what)
			paths := []string{tree.name}
			if rng.IntN(4) == 0 {
				paths = []string{filepath.Join(work, tree.name)}
			}
			cfg := driver.Config{Paths: paths, Policy: pol, Rules: rules.All(), Learn: rules.Learn}
			want := lintOnce(t, cfg)
			cfg.Cache = driver.OpenCache(t, cacheDir)
			sameAs(t, label+", first run with the cache", want, lintOnce(t, cfg))
			cfg.Cache.Close()
			sameAs(t, label+", second run with the cache", want, lintOnce(t, cfg))
			cfg.Cache = driver.OpenCache(t, cacheDir)
			sameAs(t, label+", another process", want, lintOnce(t, cfg))
			cfg.Cache.Close()
			for _, run := range []string{"printing", "printing again"} {
				cfg.Cache = driver.OpenCache(t, cacheDir)
				if got := lintPrinting(t, cfg); got != want.text {
					t.Fatalf("%s, %s: the text report differs with the cache (-without +with):\n%s", label, run, cmp.Diff(want.text, got))
				}
				cfg.Cache.Close()
			}
			if step%5 == 0 {
				restore := driver.KeepSmallTreesWhole()
				cfg.Cache = driver.OpenCache(t, cacheDir+"-whole")
				sameAs(t, label+", kept whole", want, lintOnce(t, cfg))
				restore()
			}
		}
	}
}

// testdataRoot is the package's folder, for tests that change directory.
var testdataRoot, _ = os.Getwd()

// TestCacheSharedByConcurrentRuns runs guard lint four times at once on
// one cache folder, each with a cache of its own as separate processes
// have, twice over: every report is the one of a run without the cache.
func TestCacheSharedByConcurrentRuns(t *testing.T) {
	defer driver.KeepEveryEntry()()
	cfg := driver.Config{Paths: []string{"testdata/corpus", "../../examples/shop"}, Policy: policy.Default(), Rules: rules.All(), Learn: rules.Learn}
	want := lintOnce(t, cfg)
	dir := t.TempDir()
	for round := range 2 {
		var wg sync.WaitGroup
		got := make([]rendered, 4)
		for i := range got {
			wg.Go(func() {
				c := cfg
				c.Cache = driver.OpenCache(t, dir)
				got[i] = lintOnce(t, c)
				c.Cache.Close()
			})
		}
		wg.Wait()
		for i, g := range got {
			sameAs(t, fmt.Sprintf("round %d, run %d", round, i), want, g)
		}
	}
}
