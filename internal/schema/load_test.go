package schema

import (
	"errors"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/testtree"
)

func tableNames(s *Schema) []string {
	var names []string
	for _, t := range s.Sorted() {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return names
}

// TestLoadDumpFolder loads a folder of dumps, one per database as mysqldump
// writes them, in natural order: v10 alters what v2 created.
func TestLoadDumpFolder(t *testing.T) {
	dir := t.TempDir()
	testtree.Write(t, dir, map[string]string{
		"v2_order.sql": "/*!40101 SET NAMES utf8mb4 */;\nDROP TABLE IF EXISTS `t_order`;\n" +
			"CREATE TABLE `t_order` (`id` bigint NOT NULL, PRIMARY KEY (`id`));\n" +
			"LOCK TABLES `t_order` WRITE;\nINSERT INTO `t_order` VALUES (1),(2);\nUNLOCK TABLES;\n",
		"v10_order_no.sql": "ALTER TABLE t_order ADD COLUMN order_no varchar(32) NOT NULL;\n",
		"v3_stock.sql":     "SET FOREIGN_KEY_CHECKS = 0;\nCREATE TABLE t_stock (id bigint PRIMARY KEY, quantity int NOT NULL);\n",
		".hidden.sql":      "CREATE TABLE t_hidden (id int);\n",
		"sub/t_sub.sql":    "CREATE TABLE t_sub (id int);\n",
		"README.md":        "not sql\n",
	})
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Replay) != 0 {
		t.Errorf("replay errors: %v", l.Replay)
	}
	if diff := cmp.Diff([]string{"t_order", "t_stock"}, tableNames(l.Schema)); diff != "" {
		t.Errorf("tables (-want +got):\n%s", diff)
	}
	if l.Schema.Table("t_order").Column("order_no") == nil {
		t.Error("v10_order_no.sql replayed before v2_order.sql")
	}
	want := []string{filepath.Join(dir, "v2_order.sql"), filepath.Join(dir, "v3_stock.sql"), filepath.Join(dir, "v10_order_no.sql")}
	if diff := cmp.Diff(want, l.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// TestLoadDumpDataBeforeTables loads a folder whose data dump sorts before
// the dump that creates its tables: the data dump's DISABLE KEYS / ENABLE
// KEYS lines change no table and are not replayed, while any other ALTER of
// a table no file created is still reported.
func TestLoadDumpDataBeforeTables(t *testing.T) {
	dir := t.TempDir()
	testtree.Write(t, dir, map[string]string{
		"shop_data.sql": "LOCK TABLES `t_stock` WRITE;\n/*!40000 ALTER TABLE `t_stock` DISABLE KEYS */;\n" +
			"INSERT INTO `t_stock` VALUES (1,5);\n/*!40000 ALTER TABLE `t_stock` ENABLE KEYS */;\nUNLOCK TABLES;\n" +
			"ALTER TABLE t_gone DISABLE KEYS, ADD COLUMN note text;\n",
		"shop_table.sql": "CREATE TABLE `t_stock` (`id` bigint NOT NULL, `quantity` int NOT NULL, PRIMARY KEY (`id`));\n",
	})
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range l.Replay {
		got = append(got, r.Msg)
	}
	if diff := cmp.Diff([]string{"alter table t_gone: unknown table"}, got); diff != "" {
		t.Errorf("replay errors (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"t_stock"}, tableNames(l.Schema)); diff != "" {
		t.Errorf("tables (-want +got):\n%s", diff)
	}
}

// TestLoadMigrationKeysOfUnknownTable keeps DISABLE KEYS a statement in a
// migration, where the server refuses it on a table that does not exist.
func TestLoadMigrationKeysOfUnknownTable(t *testing.T) {
	dir := t.TempDir()
	testtree.Write(t, dir, map[string]string{"1_keys.up.sql": "ALTER TABLE t_nope DISABLE KEYS;\n"})
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Replay) != 1 || l.Replay[0].Msg != "alter table t_nope: unknown table" {
		t.Errorf("replay errors = %v, want the unknown table", l.Replay)
	}
}

// TestLoadPrefersMigrations reads a folder with up files as a migrations
// folder, whatever other .sql files lie beside them.
func TestLoadPrefersMigrations(t *testing.T) {
	dir := t.TempDir()
	testtree.Write(t, dir, map[string]string{
		"1_init.up.sql":   "CREATE TABLE t_a (id int PRIMARY KEY);\n",
		"1_init.down.sql": "DROP TABLE t_a;\n",
		"seed.sql":        "CREATE TABLE t_seed (id int PRIMARY KEY);\n",
	})
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"t_a"}, tableNames(l.Schema)); diff != "" {
		t.Errorf("tables (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{filepath.Join(dir, "1_init.up.sql")}, l.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

func TestLoadFile(t *testing.T) {
	path := filepath.Join("testdata", "dump", "shop_mysql8.sql")
	l, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Replay) != 0 {
		t.Errorf("replay errors: %v", l.Replay)
	}
	if diff := cmp.Diff([]string{"t_ledger", "t_stock"}, tableNames(l.Schema)); diff != "" {
		t.Errorf("tables (-want +got):\n%s", diff)
	}
	if len(l.Files) != 1 || l.Files[0] != path {
		t.Errorf("files = %+v", l.Files)
	}
}

// TestLoadNothing refuses a folder that yields no schema, instead of an
// empty one that silences every schema rule.
func TestLoadNothing(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"empty":      {},
		"other":      {"README.md": "x\n", "sub/1_a.up.sql": "CREATE TABLE a (id int);\n"},
		"down only":  {"1_a.down.sql": "DROP TABLE a;\n"},
		"hidden sql": {".x.sql": "CREATE TABLE a (id int);\n"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			testtree.Write(t, dir, files)
			_, err := Load(dir)
			if !errors.Is(err, ErrNoSchemaFiles) {
				t.Errorf("Load = %v, want ErrNoSchemaFiles", err)
			}
		})
	}
	if _, err := Load(filepath.Join(t.TempDir(), "nope")); err == nil || errors.Is(err, ErrNoSchemaFiles) {
		t.Errorf("missing path: %v", err)
	}
}

func TestNaturalLess(t *testing.T) {
	sorted := []string{"V1__a.sql", "V2__b.sql", "V10__c.sql", "a.sql", "a1.sql", "a01b.sql", "a1b.sql", "a2.sql", "b.sql"}
	for i := range sorted {
		for j := range sorted {
			if got := naturalLess(sorted[i], sorted[j]); got != (i < j) {
				t.Errorf("naturalLess(%q, %q) = %v", sorted[i], sorted[j], got)
			}
		}
	}
}
