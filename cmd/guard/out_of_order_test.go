package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/testtree"
)

// gm008 runs guard lint --format json with args and returns its GM008
// findings as "file: message | fix", and the exit code.
func gm008(t *testing.T, args ...string) ([]string, int) {
	t.Helper()
	out, stderr, code := guard(t, append([]string{"lint", "--format", "json"}, args...)...)
	var res struct {
		Findings []struct{ Code, File, Message, Fix string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s %s", err, out, stderr)
	}
	got := []string{}
	for _, f := range res.Findings {
		if f.Code == "GM008" {
			got = append(got, f.File+": "+f.Message+" | "+f.Fix)
		}
	}
	return got, code
}

// mergedBranch builds a repository whose main holds migrations 1 and 4,
// then a branch adding version branchVersion while main adds 6, and merges
// the branch into main. It returns the repository and main's commit before
// the merge.
func mergedBranch(t *testing.T, branchVersion string) (dir, beforeMerge string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is not installed: --new-from-rev needs it (apt-get install git)")
	}
	dir = t.TempDir()
	testtree.Write(t, dir, map[string]string{
		"migrations/000001_init.up.sql":     "CREATE TABLE t_note (\n  id BIGINT NOT NULL PRIMARY KEY,\n  body VARCHAR(64) NULL\n) ENGINE=InnoDB;\n",
		"migrations/000001_init.down.sql":   "DROP TABLE t_note;\n",
		"migrations/000004_author.up.sql":   "ALTER TABLE t_note ADD COLUMN author BIGINT NULL, ALGORITHM=INSTANT;\n",
		"migrations/000004_author.down.sql": "ALTER TABLE t_note DROP COLUMN author;\n",
	})
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "base")

	gitIn(t, dir, "checkout", "-q", "-b", "feature")
	testtree.Write(t, dir, map[string]string{
		"migrations/" + branchVersion + "_title.up.sql":   "ALTER TABLE t_note ADD COLUMN title VARCHAR(64) NULL, ALGORITHM=INSTANT;\n",
		"migrations/" + branchVersion + "_title.down.sql": "ALTER TABLE t_note DROP COLUMN title;\n",
	})
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "title")

	gitIn(t, dir, "checkout", "-q", "main")
	testtree.Write(t, dir, map[string]string{
		"migrations/000006_tag.up.sql":   "ALTER TABLE t_note ADD COLUMN tag VARCHAR(16) NULL, ALGORITHM=INSTANT;\n",
		"migrations/000006_tag.down.sql": "ALTER TABLE t_note DROP COLUMN tag;\n",
	})
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "tag")
	gitIn(t, dir, "tag", "before-merge")
	gitIn(t, dir, "merge", "-q", "--no-ff", "-m", "merge feature", "feature")
	return dir, "before-merge"
}

// TestOutOfOrderMerge: a branch's migration merged below main's newest is
// GM008 with --new-from-rev main-before-the-merge; numbered above it, it is
// not; without --new-from-rev, or against a revision both files are new
// since, nothing is compared and nothing found.
func TestOutOfOrderMerge(t *testing.T) {
	dir, rev := mergedBranch(t, "000005")
	t.Chdir(dir)
	got, code := gm008(t, "--new-from-rev", rev, ".")
	want := []string{"migrations/000005_title.up.sql: " +
		"migration version 5 is new since before-merge but not above version 6 (migrations/000006_tag.up.sql), the highest its folder had there: " +
		"golang-migrate never applies it on a database already at version 6" +
		" | renumber it above version 6 so that it runs next everywhere: 000007_title.up.sql, and its .down.sql likewise"}
	if d := cmp.Diff(want, got); d != "" || code != exitFindings {
		t.Errorf("exit %d; GM008 (-want +got):\n%s", code, d)
	}
	if got, _ := gm008(t, "."); len(got) != 0 {
		t.Errorf("without --new-from-rev: %v", got)
	}
	// Since the base, 5 and 6 are both new and above 4: in order.
	if got, _ := gm008(t, "--new-from-rev", "main~1~1", "."); len(got) != 0 {
		t.Errorf("since the base: %v", got)
	}
	// From inside the migrations folder, the paths are the folder's own.
	t.Chdir("migrations")
	if got, _ := gm008(t, "--new-from-rev", rev, "."); len(got) != 1 || !strings.HasPrefix(got[0], "000005_title.up.sql: ") || !strings.Contains(got[0], "(000006_tag.up.sql)") {
		t.Errorf("from the migrations folder: %v", got)
	}
}

// TestOutOfOrderRenumbered is the safe twin: the branch numbers its
// migration above main's newest before merging.
func TestOutOfOrderRenumbered(t *testing.T) {
	dir, rev := mergedBranch(t, "000007")
	t.Chdir(dir)
	if got, code := gm008(t, "--new-from-rev", rev, "."); len(got) != 0 || code != exitClean {
		t.Errorf("exit %d; GM008 %v", code, got)
	}
}

// TestDuplicateVersionRefused: two up files of one version are no GM008
// finding but bad input, exit 2 naming both, as guard migrate refuses them.
func TestDuplicateVersionRefused(t *testing.T) {
	dir := t.TempDir()
	testtree.Write(t, dir, map[string]string{
		"migrations/000001_init.up.sql":  "CREATE TABLE t_note (id BIGINT NOT NULL PRIMARY KEY) ENGINE=InnoDB;\n",
		"migrations/000002_title.up.sql": "ALTER TABLE t_note ADD COLUMN title VARCHAR(64) NULL, ALGORITHM=INSTANT;\n",
		"migrations/000002_tag.up.sql":   "ALTER TABLE t_note ADD COLUMN tag VARCHAR(16) NULL, ALGORITHM=INSTANT;\n",
	})
	t.Chdir(dir)
	_, stderr, code := guard(t, "lint", ".")
	if code != exitInput || !strings.Contains(stderr, "duplicate up migration for version 2") ||
		!strings.Contains(stderr, "000002_tag.up.sql") || !strings.Contains(stderr, "000002_title.up.sql") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
