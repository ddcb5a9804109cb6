package driver

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/testtree"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

// countReads counts the reads of each file through readFile until the
// returned function restores it; change, when set, is what a read of the
// file it names returns instead of its content.
func countReads(t *testing.T, change map[string]string) (map[string]int, func()) {
	t.Helper()
	var mu sync.Mutex
	reads := map[string]int{}
	old := readFile
	readFile = func(p string) ([]byte, error) {
		mu.Lock()
		reads[filepath.Base(p)]++
		mu.Unlock()
		if s, ok := change[filepath.Base(p)]; ok {
			return []byte(s), nil
		}
		return old(p)
	}
	return reads, func() { readFile = old }
}

// TestCacheReadsOnlyWhatItMust checks what a run with the cache reads
// after one file changed: the changed file; the unchanged files whose
// first judgement asked about a column the vocabulary decides otherwise
// than the policy as written (spare, a counter since a.sql decrements
// it: a.sql's decrement and b.sql's absolute write), read to be judged
// again; and no other source (d.sql).
func TestCacheReadsOnlyWhatItMust(t *testing.T) {
	defer KeepEveryEntry()()
	dir := t.TempDir()
	testtree.Write(t, dir, map[string]string{
		"migrations/000001_widget.up.sql": "CREATE TABLE t_widget (id BIGINT PRIMARY KEY, spare INT NOT NULL, version INT NOT NULL DEFAULT 0);\n",
		"a.sql":                           "UPDATE t_widget SET spare = spare - 1, version = version + 1 WHERE id = 7;\n",
		"b.sql":                           "UPDATE t_widget SET spare = 5, version = version + 1 WHERE id = 8;\n",
		"c.sql":                           "SELECT id FROM t_widget WHERE id = 1;\n",
		"d.sql":                           "SELECT id FROM t_widget WHERE id = 3;\n",
	})
	cfg := Config{Paths: []string{dir}, Policy: policy.Default(), Rules: rules.All(), Learn: rules.Learn}
	want, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !hasCode(want, "b.sql", "GQ003") {
		t.Fatalf("b.sql has no GQ003 without the cache: the test's premise is gone\n%+v", want.Findings)
	}
	cfg.Cache = openCache(t, t.TempDir())
	if _, err := Run(cfg); err != nil {
		t.Fatal(err)
	}
	testtree.Write(t, dir, map[string]string{"c.sql": "SELECT id FROM t_widget WHERE id = 2;\n"})
	want, _ = Run(Config{Paths: cfg.Paths, Policy: cfg.Policy, Rules: cfg.Rules, Learn: cfg.Learn})
	reads, restore := countReads(t, nil)
	got, err := Run(cfg)
	restore()
	cfg.Cache.Close() // the result is written as the report would be
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("result differs with the cache (-without +with):\n%s", d)
	}
	if reads["a.sql"] != 1 || reads["b.sql"] != 1 || reads["c.sql"] != 1 || reads["d.sql"] != 0 {
		t.Errorf("reads %v: want a.sql and b.sql once (judged again), c.sql once (changed), d.sql none", reads)
	}
	reads, restore = countReads(t, nil)
	if got, _ := Run(cfg); !cmp.Equal(want, got) {
		t.Error("the result read back whole differs")
	}
	restore()
	if reads["a.sql"]+reads["b.sql"]+reads["c.sql"]+reads["d.sql"] != 0 {
		t.Errorf("an unchanged tree read its sources again: %v", reads)
	}
}

// TestCacheKeepsNothingOfAFileChangedWhileRead makes a source read other
// content than was hashed, as a file saved while guard lint runs: the run
// reports what it read, and keeps neither its result nor the file's first
// judgement under the key of what it hashed, so the next run reports the
// file as it is.
func TestCacheKeepsNothingOfAFileChangedWhileRead(t *testing.T) {
	defer KeepEveryEntry()()
	dir := t.TempDir()
	testtree.Write(t, dir, map[string]string{
		"a.sql": "UPDATE t_widget SET spare = spare - 1 WHERE id = 7;\n",
		"b.sql": "SELECT 1;\n",
	})
	cfg := Config{Paths: []string{dir}, Policy: policy.Default(), Rules: rules.All(), Learn: rules.Learn}
	want, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Cache = openCache(t, t.TempDir())
	_, restore := countReads(t, map[string]string{"b.sql": "DELETE FROM t_widget;\n"})
	during, err := Run(cfg)
	restore()
	cfg.Cache.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !hasCode(during, "b.sql", "GQ001") {
		t.Fatalf("the run does not report what it read: %+v", during.Findings)
	}
	got, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("the run after reports what an earlier one read, not the file (-want +got):\n%s", d)
	}
}

func hasCode(res *lint.Result, file, code string) bool {
	for _, f := range res.Findings {
		if strings.HasSuffix(f.File, file) && f.Code == code {
			return true
		}
	}
	return false
}

// TestCacheHostCodeFollowsTheVocabulary keeps the judgement of a Java
// mapper whose absolute write of spare is a GQ003 only while a .sql source
// decrements spare (which makes it a counter), then drops the decrement:
// the host code's judgement read back would still hold the GQ003, and the
// run must judge the host code again instead.
func TestCacheHostCodeFollowsTheVocabulary(t *testing.T) {
	defer KeepEveryEntry()()
	dir := t.TempDir()
	testtree.Write(t, dir, map[string]string{
		"migrations/000001_widget.up.sql": "CREATE TABLE t_widget (id BIGINT PRIMARY KEY, spare INT NOT NULL, version INT NOT NULL DEFAULT 0);\n",
		"a.sql":                           "UPDATE t_widget SET spare = spare - 1, version = version + 1 WHERE id = 7 AND spare >= 1;\n",
		"WidgetMapper.java": "package x;\n\nimport org.apache.ibatis.annotations.Update;\n\npublic interface WidgetMapper {\n" +
			"    @Update(\"UPDATE t_widget SET spare = #{n}, version = version + 1 WHERE id = #{id}\")\n    int put(long id, int n);\n}\n",
	})
	cold := Config{Paths: []string{dir}, Policy: policy.Default(), Rules: rules.All(), Learn: rules.Learn}
	warm := cold
	warm.Cache = openCache(t, t.TempDir())
	for step, text := range []string{"", "SELECT id FROM t_widget WHERE id = 7;\n", "UPDATE t_widget SET spare = spare - 2, version = version + 1 WHERE id = 8 AND spare >= 2;\n"} {
		if text != "" {
			testtree.Write(t, dir, map[string]string{"a.sql": text})
		}
		want, err := Run(cold)
		if err != nil {
			t.Fatal(err)
		}
		if counter := step != 1; hasCode(want, "WidgetMapper.java", "GQ003") != counter {
			t.Fatalf("step %d: GQ003 on the mapper %v without the cache: the test's premise is gone\n%+v", step, !counter, want.Findings)
		}
		got, err := Run(warm)
		warm.Cache.Close()
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("step %d: result differs with the cache (-without +with):\n%s", step, d)
		}
	}
}
