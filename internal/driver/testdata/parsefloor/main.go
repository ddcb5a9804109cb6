// Command parsefloor is the floor of guard lint's performance figures
// (BenchmarkWholeProcess): the TiDB parser called directly, no guard package
// in between. It reads every .sql file of a folder that is not a migration
// first, then parses each whole with parser.New() (window functions on), one
// file after another on one goroutine, with the runtime's default collector,
// and checks the number of statements.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: parsefloor DIR STATEMENTS-PER-FILE")
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
	var texts []string
	for _, f := range files {
		if strings.HasSuffix(f, ".up.sql") || strings.HasSuffix(f, ".down.sql") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		texts = append(texts, string(src))
	}
	p := parser.New()
	p.EnableWindowFunc(true)
	total := 0
	for i, text := range texts {
		stmts, _, err := p.Parse(text, "", "")
		if err != nil || len(stmts) != want {
			fmt.Fprintf(os.Stderr, "file %d: %d statements, %v\n", i, len(stmts), err)
			os.Exit(1)
		}
		total += len(stmts)
	}
	fmt.Println(total, "statements")
}
