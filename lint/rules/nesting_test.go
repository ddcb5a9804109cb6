package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/policy"
)

// TestNotCheckedTooDeep turns a mapper statement whose dynamic tags nest
// beyond the limit into one GQ009 at the statement, whatever its depth, and
// checks the statements beside it as usual.
func TestNotCheckedTooDeep(t *testing.T) {
	const depth = 100_000
	var b strings.Builder
	b.WriteString("<mapper namespace=\"m\">\n<update id=\"deep\">UPDATE t SET a = 1 WHERE id = 1\n")
	for i := range depth {
		fmt.Fprintf(&b, "<if test=\"a%d != null\">AND a%d = #{a%d}\n", i, i, i)
	}
	b.WriteString(strings.Repeat("</if>", depth) + "</update>\n")
	b.WriteString("<update id=\"shallow\">UPDATE t SET a = 1 WHERE id = ${id}</update>\n</mapper>\n")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "DeepMapper.xml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := driver.Run(driver.Config{Paths: []string{dir}, Policy: policy.Default(), Rules: All(), Learn: Learn})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, fmt.Sprintf("%d %s %s", f.Line, f.Code, f.Message))
	}
	wantDeep := "2 GQ009 not checked: too deeply nested (more than 64 levels of dynamic tags)"
	if len(got) == 0 || got[0] != wantDeep {
		t.Fatalf("findings %q, want first %q", got, wantDeep)
	}
	for _, g := range got[1:] {
		if !strings.HasPrefix(g, fmt.Sprintf("%d ", depth+4)) {
			t.Errorf("finding %q is not at the shallow statement (line %d)", g, depth+4)
		}
	}
	if len(got) < 2 {
		t.Errorf("no finding at the shallow statement: %q", got)
	}
}
