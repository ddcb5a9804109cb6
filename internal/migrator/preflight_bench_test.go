package migrator

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// insertsFile writes a migration of single-row INSERTs of about size bytes.
func insertsFile(b *testing.B, size int) string {
	b.Helper()
	var sb strings.Builder
	sb.WriteString("CREATE TABLE t_big (id BIGINT NOT NULL PRIMARY KEY, sku VARCHAR(32) NOT NULL, qty INT NOT NULL);\n")
	for i := 1; sb.Len() < size; i++ {
		fmt.Fprintf(&sb, "INSERT INTO t_big (id, sku, qty) VALUES (%d, 'sku-%d', %d);\n", i, i, i%100)
	}
	path := filepath.Join(b.TempDir(), "000001_big.up.sql")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
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
