package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/testtree"
)

// TestInitGolden runs guard init on the example shop and on the inference
// fixture, compares the policies it writes with the goldens, and lints the
// project with each: the written policy must load and keep the findings the
// inference gave (its [[table]] entries say the same explicitly).
func TestInitGolden(t *testing.T) {
	t.Chdir("../..")
	for _, tt := range []struct{ name, dir string }{
		{"init_shop.toml", filepath.Join("examples", "shop")},
		{"init_infer.toml", filepath.Join("lint", "rules", "testdata", "infer")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "policies.toml")
			stdout, stderr, code := guard(t, "init", "--out", out, tt.dir)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, "wrote "+out) {
				t.Errorf("summary does not name the file: %s", stdout)
			}
			text, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name, string(text))
			if _, err := policy.Parse(out, text); err != nil {
				t.Fatalf("written policy does not load: %v", err)
			}
			inferred, _, _ := guard(t, "lint", "--fail-on", "never", tt.dir)
			confirmed, stderr, code := guard(t, "lint", "--fail-on", "never", "--config", out, tt.dir)
			if code != 0 {
				t.Fatalf("lint --config %s: exit %d: %s", out, code, stderr)
			}
			if strip(confirmed) != strip(inferred) {
				t.Errorf("findings with the written policy differ from the inferred ones:\n%s\n---\n%s", confirmed, inferred)
			}
		})
	}
}

// strip drops the "(inferred …)" evidence from findings: with the written
// policy the entries decide, so the messages no longer say they were guessed.
func strip(report string) string {
	var out []string
	for _, line := range strings.Split(report, "\n") {
		if i := strings.Index(line, " (inferred "); i >= 0 {
			line = line[:i]
		}
		if i := strings.Index(line, " (use_status: inferred"); i >= 0 {
			line = line[:i]
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

func TestInitRefusesToOverwrite(t *testing.T) {
	t.Chdir("../..")
	out := filepath.Join(t.TempDir(), "policies.toml")
	if err := os.WriteFile(out, []byte("version = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	shop := filepath.Join("examples", "shop")
	_, stderr, code := guard(t, "init", "--out", out, shop)
	if code != 2 || !strings.Contains(stderr, "without --force") {
		t.Fatalf("exit %d, stderr %q; want 2 and a word about --force", code, stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != "version = 1\n" {
		t.Fatalf("the existing file was changed: %q", b)
	}
	if _, stderr, code := guard(t, "init", "--force", "--out", out, shop); code != 0 {
		t.Fatalf("--force: exit %d: %s", code, stderr)
	}
	if _, _, code := guard(t, "init", "--format", "sarif", "--out", out, "--force", shop); code != 2 {
		t.Fatalf("--format sarif: exit %d, want 2", code)
	}
}

// TestInitReadsDumpWithoutSchema: a project with neither migrations nor
// --schema keeps its definitions in a dump among its query sources; init
// proposes from them, as lint infers from them, and the written policy keeps
// lint's findings.
func TestInitReadsDumpWithoutSchema(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"sql/shop.sql": "CREATE TABLE sys_user (\n" +
			"  user_id BIGINT NOT NULL PRIMARY KEY,\n" +
			"  status CHAR(1) DEFAULT '0' COMMENT 'account status (0 normal 1 disabled)'\n" +
			");\n",
		"mapper/UserMapper.xml": `<?xml version="1.0" encoding="UTF-8"?>
<mapper namespace="x.UserMapper">
  <update id="changeStatus">
    update sys_user set status = #{status} where user_id = #{userId}
  </update>
</mapper>
`,
	}
	testtree.Write(t, dir, files)
	out := filepath.Join(t.TempDir(), "policies.toml")
	if _, stderr, code := guard(t, "init", "--out", out, dir); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), `name = "sys_user"`) || !strings.Contains(string(text), "not in states: status — an on/off flag: its definition lists two values") {
		t.Errorf("init proposed nothing from the dump:\n%s", text)
	}
	inferred, _, _ := guard(t, "lint", "--fail-on", "never", dir)
	confirmed, stderr, code := guard(t, "lint", "--fail-on", "never", "--config", out, dir)
	if code != 0 {
		t.Fatalf("lint --config: exit %d: %s", code, stderr)
	}
	if strip(confirmed) != strip(inferred) || strings.Contains(inferred, "GQ005") {
		t.Errorf("findings: inferred\n%s\nwith the written policy\n%s", inferred, confirmed)
	}
}
