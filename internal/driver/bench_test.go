package driver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/gctune"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint/rules"
	"github.com/pingcap/tidb/pkg/parser"
)

// corpusTemplates are the statement shapes of the generated corpus: the
// queries of a shop's data layer, safe and unsafe.
var corpusTemplates = []string{
	"UPDATE t_product SET stock = stock - ?, version = version + 1 WHERE id = %d AND stock >= ?",
	"UPDATE t_inventory SET inventory = inventory - %d WHERE product_id = ? AND warehouse_id = ?",
	"SELECT id, sku, name, stock, version FROM t_product WHERE id = %d",
	"INSERT INTO t_order (order_no, user_id, product_id, item_count, amount, status) VALUES ('N%d', ?, ?, 1, 9.90, 'NEW')",
	"UPDATE t_order SET status = 'PAID', version = version + 1 WHERE order_no = ? AND status = 'NEW' AND id > %d",
	"SELECT o.id, o.amount, p.status FROM t_order o JOIN t_payment p ON p.order_id = o.id WHERE o.user_id = %d ORDER BY o.id DESC LIMIT 20",
	"DELETE FROM t_payment WHERE id = %d AND status = 'EXPIRED'",
	"UPDATE t_account SET balance = GREATEST(balance - %d, 0), version = version + 1 WHERE user_id = ?",
	"SELECT stock FROM t_product WHERE id = %d FOR UPDATE",
	"INSERT INTO t_account (user_id, balance) VALUES (%d, 0) ON DUPLICATE KEY UPDATE balance = balance + VALUES(balance)",
}

// writeCorpus writes files×perFile statements below dir, next to the example
// shop's migrations, and returns the statements' texts, one string per file.
func writeCorpus(b *testing.B, dir string, files, perFile int) []string {
	b.Helper()
	mig, err := filepath.Glob("../../examples/shop/migrations/*.up.sql")
	if err != nil || len(mig) == 0 {
		b.Fatalf("example migrations: %v", err)
	}
	os.MkdirAll(filepath.Join(dir, "migrations"), 0o755)
	for _, m := range mig {
		src, _ := os.ReadFile(m)
		os.WriteFile(filepath.Join(dir, "migrations", filepath.Base(m)), src, 0o644)
	}
	texts := make([]string, files)
	for f := range files {
		texts[f] = corpusFile(f, perFile, 0)
		os.WriteFile(filepath.Join(dir, corpusName(f)), []byte(texts[f]), 0o644)
	}
	return texts
}

// corpusName is the name of the corpus's file f.
func corpusName(f int) string { return fmt.Sprintf("queries_%03d.sql", f) }

// corpusFile returns the text of the corpus's file f: perFile statements,
// each with its own literal, shifted by offset (an edit that keeps every
// statement's shape and the file's count).
func corpusFile(f, perFile, offset int) string {
	var sb strings.Builder
	for i := range perFile {
		n := f*perFile + i
		fmt.Fprintf(&sb, "-- query %d\n", n)
		fmt.Fprintf(&sb, corpusTemplates[n%len(corpusTemplates)], n+offset)
		sb.WriteString(";\n")
	}
	return sb.String()
}

const corpusFiles, corpusPerFile = 50, 1000 // 50,000 statements

// BenchmarkLint measures guard lint on the generated corpus (extraction,
// splitting, parsing, schema replay, every rule, report collection).
func BenchmarkLint(b *testing.B) {
	dir := b.TempDir()
	texts := writeCorpus(b, dir, corpusFiles, corpusPerFile)
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lintCorpus(b, dir)
	}
	b.ReportMetric(float64(corpusFiles*corpusPerFile*b.N)/b.Elapsed().Seconds(), "stmts/s")
}

// lintCorpus runs guard lint, every rule and the inference, on the corpus
// in dir.
func lintCorpus(b *testing.B, dir string) {
	res, err := driver.Run(driver.Config{Paths: []string{dir}, Policy: policy.Default(), Rules: rules.All(), Learn: rules.Learn})
	if err != nil {
		b.Fatal(err)
	}
	if res.Summary.Statements < corpusFiles*corpusPerFile {
		b.Fatalf("linted %d statements", res.Summary.Statements)
	}
}

// newFloorParser returns the parser of the floor: parser.New(), window
// functions on.
func newFloorParser() *parser.Parser {
	p := parser.New()
	p.EnableWindowFunc(true)
	return p
}

// bareParse parses texts the way BenchmarkBareParse does: the TiDB parser
// called directly, as the parse floor of BenchmarkWholeProcess calls it,
// no guard package in between.
func bareParse(b *testing.B, p *parser.Parser, texts []string) {
	for _, t := range texts {
		stmts, _, err := p.Parse(t, "", "")
		if err != nil || len(stmts) != corpusPerFile {
			b.Fatalf("bare parse: %d statements, %v", len(stmts), err)
		}
	}
}

// BenchmarkLintVersusParse is the comparison of make bench. Each iteration
// runs four sides one right after the other, so that all four meet the same
// machine (its two vCPUs are shared, and their speed varies by a fifth from
// one minute to the next): the bare parse and guard lint, each with the
// runtime's default collector and with guard lint's collector tuning
// (gctune.Lint, which the guard command applies). It reports the median
// time of each side and the ratios of the medians; lint-tuned/parse is
// guard lint as the command runs it against the parser as it runs alone.
//
//	go test ./lint -run '^$' -bench LintVersusParse -benchtime 7x
func BenchmarkLintVersusParse(b *testing.B) {
	dir := b.TempDir()
	texts := writeCorpus(b, dir, corpusFiles, corpusPerFile)
	p := newFloorParser()
	sides := []struct {
		name  string
		tuned bool
		run   func()
	}{
		{"parse", false, func() { bareParse(b, p, texts) }},
		{"lint", false, func() { lintCorpus(b, dir) }},
		{"parse-tuned", true, func() { bareParse(b, p, texts) }},
		{"lint-tuned", true, func() { lintCorpus(b, dir) }},
	}
	times := make([][]time.Duration, len(sides))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range sides {
			k := (k + i) % len(sides) // each side goes first in turn
			s := sides[k]
			runtime.GC()
			end := func() {}
			if s.tuned {
				end = gctune.Lint.Apply()
			}
			start := time.Now()
			s.run()
			times[k] = append(times[k], time.Since(start))
			end()
		}
	}
	b.StopTimer()
	med := make(map[string]float64, len(sides))
	for k, s := range sides {
		slices.Sort(times[k])
		med[s.name] = float64(times[k][len(times[k])/2]) / float64(time.Millisecond)
		b.ReportMetric(med[s.name], s.name+"-ms")
	}
	b.ReportMetric(med["lint"]/med["parse"], "lint/parse")
	b.ReportMetric(med["lint-tuned"]/med["parse"], "lint-tuned/parse")
	b.ReportMetric(med["lint-tuned"]/med["parse-tuned"], "lint-tuned/parse-tuned")
}

// BenchmarkBareParse is the reference: the TiDB parser alone parsing the same
// statements, one call per file, on one goroutine.
func BenchmarkBareParse(b *testing.B) {
	texts := writeCorpus(b, b.TempDir(), corpusFiles, corpusPerFile)
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	b.SetBytes(int64(size))
	p := newFloorParser()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bareParse(b, p, texts)
	}
	b.ReportMetric(float64(corpusFiles*corpusPerFile*b.N)/b.Elapsed().Seconds(), "stmts/s")
}

// dumpBytes is the size of the script BenchmarkLintDump lints.
const dumpBytes = 20 << 20

// writeDump writes to p a script of about size bytes: INSERTs of twenty
// rows each, and every five hundred an unguarded decrement (GQ002 in a
// query source). It returns the script's size.
func writeDump(b *testing.B, p string, size int) int64 {
	b.Helper()
	var sb strings.Builder
	sb.WriteString("-- bulk order load\n")
	for n := 0; sb.Len() < size; {
		sb.WriteString("INSERT INTO t_order (id, sku_id, qty, pay_no) VALUES\n")
		for r := 0; r < 20; r++ {
			n++
			sep := ",\n"
			if r == 19 {
				sep = ";\n"
			}
			fmt.Fprintf(&sb, "  (%d, %d, %d, 'P%010d')%s", n, n%99991, n%9+1, n, sep)
		}
		if n%10000 == 0 {
			fmt.Fprintf(&sb, "UPDATE t_sku SET stock = stock - 1 WHERE id = %d;\n", n)
		}
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return int64(sb.Len())
}

// heapPeak samples the bytes of live and not yet swept heap objects every
// millisecond until the returned function is called, which returns the
// largest sample.
func heapPeak() (stop func() uint64) {
	done, peak := make(chan struct{}), make(chan uint64)
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var top uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			top = max(top, sample[0].Value.Uint64())
			select {
			case <-done:
				peak <- top
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 { close(done); return <-peak }
}

// BenchmarkLintDump lints one script of multi-row INSERTs with guard
// lint's collector tuning, as the command runs: as a query source and as a
// migration. Both are parsed a part at a time and drop their rows' trees,
// so the query source, which the query rules judge besides, should cost
// about what the migration does, in time and in peak heap (a query source
// once held every row's tree until the file's last rule had run: a 200 MB
// dump peaked at 8 GB).
//
//	go test ./internal/driver -run '^$' -bench LintDump -benchtime 3x
func BenchmarkLintDump(b *testing.B) {
	for _, side := range []struct{ name, file string }{
		{"query", "queries.sql"},
		{"migration", "migrations/000001_load.up.sql"},
	} {
		b.Run(side.name, func(b *testing.B) {
			dir := b.TempDir()
			b.SetBytes(writeDump(b, filepath.Join(dir, side.file), dumpBytes))
			var peak uint64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				runtime.GC()
				end := gctune.Lint.Apply()
				stop := heapPeak()
				res, err := driver.Run(driver.Config{Paths: []string{dir}, Policy: policy.Default(), Rules: rules.All(), Learn: rules.Learn})
				peak = max(peak, stop())
				end()
				if err != nil {
					b.Fatal(err)
				}
				if res.Summary.Statements < dumpBytes/1000 {
					b.Fatalf("linted %d statements", res.Summary.Statements)
				}
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}
