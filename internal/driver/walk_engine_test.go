package driver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOtherEngineScripts leaves out the scripts and code a project keeps for
// other engines, by a folder or a word of the file name, and keeps MySQL's.
func TestOtherEngineScripts(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"db/h2/schema.sql", "db/postgresql/data.sql", "db/mysql/schema.sql", "sql/schema-hsqldb.sql",
		"sql/schema.sql", "sql/pgbouncer_notes.sql", "dao/Postgres.go", "dao/mysql_store.go", "service/sys_initdb_pgsql.go",
		"mapper/oracle/UserMapper.xml", "mapper/UserMapper.xml"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("SELECT 1;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in, err := walk([]string{dir}, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(r))
		}
		return out
	}
	if d := cmp.Diff([]string{"dao/mysql_store.go", "db/mysql/schema.sql", "mapper/UserMapper.xml", "sql/pgbouncer_notes.sql", "sql/schema.sql"}, rel(in.sources)); d != "" {
		t.Errorf("sources (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"dao/Postgres.go", "db/h2/schema.sql", "db/postgresql/data.sql", "mapper/oracle/UserMapper.xml", "service/sys_initdb_pgsql.go", "sql/schema-hsqldb.sql"}, rel(in.otherEngines)); d != "" {
		t.Errorf("left out (-want +got):\n%s", d)
	}
	// A file named on the command line is linted whatever its path says.
	named := filepath.Join(dir, "db", "h2", "schema.sql")
	if in, err = walk([]string{named}, nil, true); err != nil || len(in.sources) != 1 {
		t.Errorf("named file: %v, %v", in.sources, err)
	}
}

// TestFlywayAndTemplates leaves Flyway migrations out of the query
// sources (they run once, at deploy) and code generator templates (a
// placeholder in their path) out altogether, and keeps what only looks
// like either.
func TestFlywayAndTemplates(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"db/V1__init.sql", "db/V3.9.1_0__all_upgrade.sql", "db/R__views.sql", "db/U2__undo.sql",
		"db/V__no_version.sql", "db/Vx1__letters.sql", "db/V1_no_desc.sql", "db/VIEWS__note.sql", "sql/schema.sql",
		"tpl/${entityPackage}/mapper/${entityName}Mapper.xml", "tpl/V${currentDate}_1__menu_insert_${entityName}.sql"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("SELECT 1;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in, err := walk([]string{dir}, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(r))
		}
		return out
	}
	if d := cmp.Diff([]string{"db/R__views.sql", "db/U2__undo.sql", "db/V1__init.sql", "db/V3.9.1_0__all_upgrade.sql"}, rel(in.flyway)); d != "" {
		t.Errorf("flyway (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"tpl/${entityPackage}/mapper/${entityName}Mapper.xml", "tpl/V${currentDate}_1__menu_insert_${entityName}.sql"}, rel(in.templates)); d != "" {
		t.Errorf("templates (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"db/V1_no_desc.sql", "db/VIEWS__note.sql", "db/V__no_version.sql", "db/Vx1__letters.sql", "sql/schema.sql"}, rel(in.sources)); d != "" {
		t.Errorf("sources (-want +got):\n%s", d)
	}
}
