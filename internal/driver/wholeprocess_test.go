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
	"testing"
	"time"
)

// BenchmarkWholeProcess compares the guard binary with the parse floor
// (testdata/parsefloor: the TiDB parser called directly, files read first,
// one goroutine, default collector) on the corpus of BenchmarkLint, process
// against process: start-up, reading, every rule and the report written to a
// file count for guard. Each round runs every side one after the other, the
// first side in turn:
//
//   - the floor;
//   - cold: guard lint --no-cache, text and JSON, against the floor;
//   - warm: guard lint with a cache that holds the unchanged tree, text and
//     JSON, against the cold run of the same format;
//   - edited: guard lint of a copy of the corpus, with a cache of its own,
//     after one file's literals changed (a new text every round, so that no
//     entry holds it), against cold text.
//
// It prints each side's medians and the ratios of the medians; not the
// peak memory, which for a child of the test binary counts the binary's own
// pages until the exec (/usr/bin/time -v guard lint … gives it). With taskset
// on the PATH the one-core rows pin every process to CPU 0, else they set
// GOMAXPROCS=1. ROUNDS=N sets the rounds (default 7).
//
//	go test ./internal/driver -run '^$' -bench WholeProcess -benchtime 1x
func BenchmarkWholeProcess(b *testing.B) {
	bin := b.TempDir()
	guard, floor := filepath.Join(bin, "guard"), filepath.Join(bin, "parsefloor")
	for out, pkg := range map[string]string{guard: "../../cmd/guard", floor: "./testdata/parsefloor"} {
		if msg, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", pkg, err, msg)
		}
	}
	dir := b.TempDir()
	writeCorpus(b, dir, corpusFiles, corpusPerFile)
	report := filepath.Join(bin, "report")
	cache := filepath.Join(bin, "cache")

	oneCore := []string{"env", "GOMAXPROCS=1"}
	if _, err := exec.LookPath("taskset"); err == nil {
		oneCore = []string{"taskset", "-c", "0"}
	}
	configs := []struct {
		name   string
		prefix []string
	}{
		{"both cores", nil},
		{"one core (" + oneCore[0] + ")", oneCore},
	}
	// The edited side lints a copy of the corpus with a cache of its own,
	// so that the warm sides' tree and cache stay as their last run left
	// them.
	edited, editCache := b.TempDir(), filepath.Join(bin, "edit-cache")
	writeCorpus(b, edited, corpusFiles, corpusPerFile)
	edits := 0
	edit := func() {
		edits++
		text := corpusFile(0, corpusPerFile, edits*10*corpusFiles*corpusPerFile)
		if err := os.WriteFile(filepath.Join(edited, corpusName(0)), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	const floorSide, coldText, coldJSON = 0, 1, 2
	sides := []struct {
		name   string
		args   []string
		check  func(int, []byte) error
		base   int    // the side it is compared with
		before func() // run before each of its runs, outside the timing
	}{
		{"parse floor", []string{floor, dir, strconv.Itoa(corpusPerFile)}, checkFloor, -1, nil},
		{"cold text", []string{guard, "lint", "--no-cache", "--no-color", dir}, checkGuard, floorSide, nil},
		{"cold json", []string{guard, "lint", "--no-cache", "--format", "json", dir}, checkGuardJSON, floorSide, nil},
		{"warm text", []string{guard, "lint", "--cache-dir", cache, "--no-color", dir}, checkGuard, coldText, nil},
		{"warm json", []string{guard, "lint", "--cache-dir", cache, "--format", "json", dir}, checkGuardJSON, coldJSON, nil},
		{"edited text", []string{guard, "lint", "--cache-dir", editCache, "--no-color", edited}, checkGuard, coldText, edit},
	}
	rounds := 7
	if n, err := strconv.Atoi(os.Getenv("ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fmt.Printf("\n%-20s %-12s %12s %12s   %-11s %8s %8s\n", "configuration", "side", "wall median", "cpu median", "against", "wall", "cpu")
		for _, c := range configs {
			// The warm and edited sides start from caches that hold their trees.
			for _, j := range []int{3, 4, 5} {
				runProc(b, c.prefix, guard, sides[j].args[1:], report, sides[j].check)
			}
			runs := make([][]procRun, len(sides))
			for r := 0; r < rounds; r++ {
				for k := range sides {
					j := (k + r) % len(sides)
					out := ""
					if j != floorSide {
						out = report
					}
					if sides[j].before != nil {
						sides[j].before()
					}
					runs[j] = append(runs[j], runProc(b, c.prefix, sides[j].args[0], sides[j].args[1:], out, sides[j].check))
				}
			}
			medians := make([]procRun, len(sides))
			for j := range sides {
				medians[j] = medianRun(runs[j])
			}
			for j, side := range sides {
				m := medians[j]
				against, wall, cpu := "", "", ""
				if side.base >= 0 {
					base := medians[side.base]
					against = sides[side.base].name
					wall = fmt.Sprintf("%.2fx", m.wall.Seconds()/base.wall.Seconds())
					cpu = fmt.Sprintf("%.2fx", m.cpu.Seconds()/base.cpu.Seconds())
				}
				fmt.Printf("%-20s %-12s %12s %12s   %-11s %8s %8s\n", c.name, side.name, m.wall.Round(time.Millisecond), m.cpu.Round(time.Millisecond), against, wall, cpu)
			}
		}
	}
}

// procRun is what one process took.
type procRun struct {
	wall, cpu time.Duration
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
		wall: time.Duration(med(func(r procRun) int64 { return int64(r.wall) })),
		cpu:  time.Duration(med(func(r procRun) int64 { return int64(r.cpu) })),
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
	return procRun{wall: wall, cpu: ps.UserTime() + ps.SystemTime()}
}

// checkFloor accepts a parse that read every statement of the corpus.
func checkFloor(code int, stdout []byte) error {
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

var jsonStatements = regexp.MustCompile(`"statements": (\d+)`)

// checkGuardJSON is checkGuard of the JSON report.
func checkGuardJSON(code int, stdout []byte) error {
	m := jsonStatements.FindSubmatch(stdout)
	if code != 1 || m == nil {
		return fmt.Errorf("exit %d, no summary", code)
	}
	if n, _ := strconv.Atoi(string(m[1])); n < corpusFiles*corpusPerFile {
		return fmt.Errorf("linted %d statements", n)
	}
	return nil
}
