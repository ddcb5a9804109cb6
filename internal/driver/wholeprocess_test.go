//go:build linux

package driver_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// BenchmarkWholeProcess compares the guard binary with a bare-parse binary
// (testdata/bareparse: the TiDB parser, one call per file, one goroutine)
// on the corpus of BenchmarkLint, process against process: start-up,
// reading, every rule and the text report written to a file count for
// guard. Each configuration runs both commands alternately, three times
// each, and prints the medians and their ratio; with taskset on the PATH
// the one-core rows pin both processes to CPU 0, else they set GOMAXPROCS=1.
//
//	go test ./lint -run '^$' -bench WholeProcess -benchtime 1x
func BenchmarkWholeProcess(b *testing.B) {
	bin := b.TempDir()
	guard, bare := filepath.Join(bin, "guard"), filepath.Join(bin, "bareparse")
	for out, pkg := range map[string]string{guard: "../../cmd/guard", bare: "./testdata/bareparse"} {
		if msg, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", pkg, err, msg)
		}
	}
	dir := b.TempDir()
	writeCorpus(b, dir, corpusFiles, corpusPerFile)
	report := filepath.Join(bin, "report.txt")

	oneCore := []string{"env", "GOMAXPROCS=1"}
	if _, err := exec.LookPath("taskset"); err == nil {
		oneCore = []string{"taskset", "-c", "0"}
	}
	configs := []struct {
		name   string
		prefix []string
	}{
		{"all cores", nil},
		{"one core (" + oneCore[0] + ")", oneCore},
	}
	const runs = 3
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fmt.Printf("\n%-20s %-10s %12s %12s %10s\n", "configuration", "command", "wall median", "cpu median", "max RSS")
		for _, c := range configs {
			var g, p []procRun
			for r := 0; r < runs; r++ {
				p = append(p, runProc(b, c.prefix, bare, []string{dir, strconv.Itoa(corpusPerFile)}, "", checkBare))
				g = append(g, runProc(b, c.prefix, guard, []string{"lint", "--no-color", dir}, report, checkGuard))
			}
			gm, pm := medianRun(g), medianRun(p)
			fmt.Printf("%-20s %-10s %12s %12s %8d MB\n", c.name, "bareparse", pm.wall.Round(time.Millisecond), pm.cpu.Round(time.Millisecond), pm.rssMB)
			fmt.Printf("%-20s %-10s %12s %12s %8d MB\n", c.name, "guard lint", gm.wall.Round(time.Millisecond), gm.cpu.Round(time.Millisecond), gm.rssMB)
			fmt.Printf("%-20s %-10s %11.2fx %11.2fx\n", c.name, "ratio", gm.wall.Seconds()/pm.wall.Seconds(), gm.cpu.Seconds()/pm.cpu.Seconds())
		}
	}
}

// procRun is what one process took.
type procRun struct {
	wall, cpu time.Duration
	rssMB     int64
}

// medianRun returns the median of each measure of runs.
func medianRun(runs []procRun) procRun {
	med := func(f func(procRun) int64) int64 {
		vs := make([]int64, len(runs))
		for i, r := range runs {
			vs[i] = f(r)
		}
		slices.Sort(vs)
		return vs[len(vs)/2]
	}
	return procRun{
		wall:  time.Duration(med(func(r procRun) int64 { return int64(r.wall) })),
		cpu:   time.Duration(med(func(r procRun) int64 { return int64(r.cpu) })),
		rssMB: med(func(r procRun) int64 { return r.rssMB }),
	}
}

// runProc runs prefix… name args…, its standard output into the file out
// (or discarded when out is empty), and has check judge the exit code and
// what it wrote.
func runProc(b *testing.B, prefix []string, name string, args []string, out string, check func(code int, stdout []byte) error) procRun {
	b.Helper()
	argv := append(append(slices.Clip(prefix), name), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		cmd.Stdout = f
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	written := stdout.Bytes()
	if out != "" {
		written, _ = os.ReadFile(out)
	}
	if err := check(code, written); err != nil {
		b.Fatalf("%s: %v\n%s", filepath.Base(name), err, stderr.Bytes())
	}
	ps := cmd.ProcessState
	run := procRun{wall: wall, cpu: ps.UserTime() + ps.SystemTime()}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		run.rssMB = ru.Maxrss / 1024 // kilobytes on Linux
	}
	return run
}

// checkBare accepts a bare parse that read every statement of the corpus.
func checkBare(code int, stdout []byte) error {
	want := fmt.Sprintf("%d statements", corpusFiles*corpusPerFile)
	if code != 0 || !bytes.Contains(stdout, []byte(want)) {
		return fmt.Errorf("exit %d, %q, want %q", code, stdout, want)
	}
	return nil
}

var summaryStatements = regexp.MustCompile(`\((\d+) statements`)

// checkGuard accepts a lint that reported findings (exit 1) on every
// statement of the corpus.
func checkGuard(code int, stdout []byte) error {
	m := summaryStatements.FindSubmatch(stdout)
	if code != 1 || m == nil {
		return fmt.Errorf("exit %d, no summary line", code)
	}
	if n, _ := strconv.Atoi(string(m[1])); n < corpusFiles*corpusPerFile {
		return fmt.Errorf("linted %d statements", n)
	}
	return nil
}
