package golang

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestExtractGoPredeclaredShadowed checks that a name the file declares
// over a predeclared one is the file's (a panic of its own takes no
// message), and that one it does not declare is the predeclared one (new).
func TestExtractGoPredeclaredShadowed(t *testing.T) {
	src := goSrc(
		"package dao",
		"import \"strings\"",
		"func panic(q string) { db.Exec(q) }",
		"func f() {",
		"	panic(\"update t set a = 1 where id = 1\")",
		"	var b = new(strings.Builder)",
		"	b.WriteString(\"update t set a = 2 where id = \")",
		"	db.Exec(b.String())",
		"}",
	)
	got := goViews(ExtractGo("dao.go", []byte(src)))
	want := []goView{
		{Line: 5, EndLine: 5, ID: "f", SQL: "update t set a = 1 where id = 1"},
		{Line: 7, EndLine: 7, ID: "f", Unchecked: "SQL built at run time with strings.Builder"},
	}
	if d := cmp.Diff(want, got, cmpopts.IgnoreFields(goView{}, "Exec")); d != "" {
		t.Errorf("fragments (-want +got):\n%s", d)
	}
}

func TestGoImportName(t *testing.T) {
	for path, want := range map[string]string{
		"fmt":                          "fmt",
		"github.com/redis/go-redis/v9": "go-redis",
		"gopkg.in/yaml.v3":             "yaml",
		"gopkg.in/check.v1":            "check",
		"github.com/zeromicro/go-zero/core/stores/sqlx": "sqlx",
	} {
		if got := goImportName(path); got != want {
			t.Errorf("goImportName(%q) = %q, want %q", path, got, want)
		}
	}
}
