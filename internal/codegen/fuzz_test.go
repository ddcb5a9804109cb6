package codegen

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
)

// FuzzRender replays DDL and generates the DAO of every table NewData
// accepts: rendering must then succeed (the templates never produce invalid
// Go, whatever the names and types of the table), and nothing may panic.
func FuzzRender(f *testing.F) {
	for _, c := range goldenCases {
		files, _ := filepath.Glob(filepath.Join("testdata", c.dir, "migrations", "*.up.sql"))
		var all []string
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			all = append(all, string(b))
		}
		f.Add(strings.Join(all, "\n"), "t_")
	}
	for _, seed := range []string{
		"CREATE TABLE `select` (`from` INT AUTO_INCREMENT PRIMARY KEY, `where` INT, `version` INT NOT NULL DEFAULT 0)",
		"CREATE TABLE t_a (id BIGINT PRIMARY KEY, `a b` INT, `a_b` INT, version INT NOT NULL)",
		"CREATE TABLE t_q (id INT PRIMARY KEY, `we\"ird` VARCHAR(3), `x``y` INT, stock INT, status ENUM('a','b'), version INT NOT NULL)",
		"CREATE TABLE `1x` (`2id` INT PRIMARY KEY, `stock` INT UNSIGNED NULL, state BIT(1), version BIGINT NOT NULL)",
		"CREATE TABLE t_dup (id INT PRIMARY KEY, stock INT, version INT NOT NULL); CREATE TABLE t_z (id INT PRIMARY KEY, state JSON, version INT NOT NULL)",
		"CREATE TABLE t_t (id INT PRIMARY KEY, d DATE, dt DATETIME NULL, ts TIMESTAMP DEFAULT now(), y YEAR, version INT NOT NULL)",
	} {
		f.Add(seed, "t_")
	}
	f.Fuzz(func(t *testing.T, ddl, prefix string) {
		var stmts []schema.DDL
		for _, st := range strings.Split(ddl, ";") {
			stmts = append(stmts, schema.DDL{SQL: st, File: "fuzz.sql", Line: 1, Col: 1})
		}
		s, _ := schema.FromDDL(stmts)
		pol := policy.Default()
		pol.Gen.StripPrefix = prefix
		for _, table := range s.Sorted() {
			data, err := NewData(table, Options{Package: "fuzzed", Policy: pol})
			if err != nil {
				continue
			}
			if _, err := Render(data); err != nil {
				t.Fatalf("table %q accepted but not rendered: %v", table.Name, err)
			}
		}
	})
}

// FuzzGoName: a Go name is empty or an exported identifier.
func FuzzGoName(f *testing.F) {
	for _, s := range []string{"user_id", "api_url", "3d", "", "__", "héllo", "a-b", "ID", "x\x00y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := GoName(s)
		if got == "" {
			return
		}
		if !token.IsIdentifier(got) || !unicode.IsUpper(rune(got[0])) {
			t.Fatalf("GoName(%q) = %q: not an exported identifier", s, got)
		}
		if base := FileBase(got); base == "" || strings.ContainsAny(base, "/\\") {
			t.Fatalf("FileBase(%q) = %q", got, base)
		}
	})
}
