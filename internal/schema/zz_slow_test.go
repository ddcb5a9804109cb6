package schema

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/sqlparse"
)

func TestZZSlow(t *testing.T) {
	dir := os.Getenv("H1_CORPUS")
	if dir == "" {
		t.Skip()
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		lines := strings.SplitN(string(b), "\n", 3)
		if len(lines) < 2 {
			continue
		}
		v := strings.TrimSuffix(strings.TrimPrefix(lines[1], "string("), ")")
		s, err := strconv.Unquote(v)
		if err != nil {
			continue
		}
		start := time.Now()
		p := sqlparse.NewParser()
		FromDDL(statementsOf(p, "f.sql", s, false))
		if d := time.Since(start); d > 50*time.Millisecond {
			t.Logf("%s: %v (%d bytes)", filepath.Base(f), d, len(s))
		}
	}
}
