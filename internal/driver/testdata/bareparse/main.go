// Command bareparse is the reference of guard lint's whole-process
// benchmark (BenchmarkWholeProcess): it reads the .sql files of a folder
// that are not migrations and parses each with the TiDB parser, one call per
// file, on one goroutine, and checks the number of statements.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: bareparse DIR STATEMENTS-PER-FILE")
		os.Exit(2)
	}
	want, err := strconv.Atoi(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	files, err := filepath.Glob(filepath.Join(os.Args[1], "*.sql"))
	if err != nil || len(files) == 0 {
		fmt.Fprintln(os.Stderr, "no .sql file in", os.Args[1], err)
		os.Exit(2)
	}
	p := sqlparse.NewParser()
	total := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".up.sql") || strings.HasSuffix(f, ".down.sql") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		stmts, err := p.ParseAll(string(src))
		if err != nil || len(stmts) != want {
			fmt.Fprintf(os.Stderr, "%s: %d statements, %v\n", f, len(stmts), err)
			os.Exit(1)
		}
		total += len(stmts)
	}
	fmt.Println(total, "statements")
}
