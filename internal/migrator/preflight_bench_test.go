package migrator

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
)

// insertsFile writes a migration of single-row INSERTs of about size bytes.
func insertsFile(b *testing.B, size int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "000001_big.up.sql")
	if err := os.WriteFile(path, []byte(inserts(size)), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// inserts returns a CREATE TABLE and single-row INSERTs, about size bytes.
func inserts(size int) string {
	var sb strings.Builder
	sb.WriteString("CREATE TABLE t_big (id BIGINT NOT NULL PRIMARY KEY, sku VARCHAR(32) NOT NULL, qty INT NOT NULL);\n")
	for i := 1; sb.Len() < size; i++ {
		fmt.Fprintf(&sb, "INSERT INTO t_big (id, sku, qty) VALUES (%d, 'sku-%d', %d);\n", i, i, i%100)
	}
	return sb.String()
}

// BenchmarkPreflightParse times what preflight does before its queries on
// a migration of single-row INSERTs of 1, 2, 4 and 8 MB: read and parse the
// file, follow its statements for guards. The time per MB (ns/MB) stays
// flat when the work is linear in the file's size.
func BenchmarkPreflightParse(b *testing.B) {
	for _, mb := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			steps := []Step{{File: insertsFile(b, mb<<20)}}
			b.ResetTimer()
			for range b.N {
				stmts, errs, err := readSteps(steps)
				if err != nil || len(errs) > 0 {
					b.Fatal(err, errs)
				}
				analyze("db", stmts)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(mb), "ns/MB")
		})
	}
}

// BenchmarkPreflightUp times guard migrate up from the start to preflight's
// refusal, on a server: the file of INSERTs ends with an ADD CHECK that a
// row of an existing table breaks, so nothing is applied and every
// iteration does the same work.
func BenchmarkPreflightUp(b *testing.B) {
	db := dbtest.MySQL(b)
	db.Exec(b, "CREATE TABLE t_pre (id INT PRIMARY KEY, qty INT NOT NULL)", "INSERT INTO t_pre VALUES (1, -1)")
	for _, mb := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			dir := writeDir(b, map[string]string{"000001_big.up.sql": inserts(mb<<20) +
				"ALTER TABLE t_pre ADD CONSTRAINT chk_pre_qty CHECK (qty >= 0);\n"})
			m := open(b, db, dir, Options{})
			b.ResetTimer()
			for range b.N {
				if _, err := m.Up(context.Background()); !errors.As(err, new(*RefusedError)) {
					b.Fatalf("up: %v, want a refusal", err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(mb), "ns/MB")
		})
	}
}
