package schema

import (
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/sqlparse"
)

func liveTable(t *testing.T, db *sql.DB, name string) *Table {
	tb := &Table{Name: name}
	var engine sql.NullString
	if err := db.QueryRow("SELECT engine FROM information_schema.tables WHERE table_schema=DATABASE() AND table_name=?", name).Scan(&engine); err != nil {
		t.Fatal(err)
	}
	tb.Engine = engine.String
	rows, err := db.Query("SELECT column_name, data_type, column_type, is_nullable, column_default, extra FROM information_schema.columns WHERE table_schema=DATABASE() AND table_name=? ORDER BY ordinal_position", name)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var cn, dt, ct, nul, extra string
		var def sql.NullString
		rows.Scan(&cn, &dt, &ct, &nul, &def, &extra)
		c := &Column{Name: cn, Type: dt, Unsigned: strings.Contains(ct, "unsigned"), Nullable: nul == "YES", AutoIncrement: strings.Contains(extra, "auto_increment")}
		if def.Valid {
			d, err := CanonicalDefault(def.String)
			if err != nil {
				t.Fatal(err)
			}
			c.Default = &d
		}
		tb.Columns = append(tb.Columns, c)
	}
	rows.Close()
	rows, err = db.Query("SELECT index_name, non_unique, column_name FROM information_schema.statistics WHERE table_schema=DATABASE() AND table_name=? ORDER BY index_name, seq_in_index", name)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*Index{}
	for rows.Next() {
		var in, cn string
		var nu int
		rows.Scan(&in, &nu, &cn)
		ix := byName[in]
		if ix == nil {
			ix = &Index{Name: in, Unique: nu == 0, Primary: in == "PRIMARY"}
			byName[in] = ix
		}
		ix.Columns = append(ix.Columns, cn)
	}
	rows.Close()
	// order as SHOW CREATE TABLE lists them: via SHOW INDEX order
	rows, err = db.Query("SHOW INDEX FROM `" + name + "`")
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.Columns()
	seen := map[string]bool{}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		rows.Scan(ptrs...)
		kn := string(vals[2].([]byte))
		if !seen[kn] {
			seen[kn] = true
			tb.Indexes = append(tb.Indexes, byName[kn])
		}
	}
	rows.Close()
	rows, err = db.Query("SELECT constraint_name, check_clause FROM information_schema.check_constraints WHERE constraint_schema=DATABASE() AND table_name=?", name)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var cn, cc string
		rows.Scan(&cn, &cc)
		ch, err := CheckFromText(cn, cc, true)
		if err != nil {
			t.Fatal(err)
		}
		tb.Checks = append(tb.Checks, ch)
	}
	rows.Close()
	if pk := tb.Index("PRIMARY"); pk != nil {
		tb.PrimaryKey = pk.Columns
	}
	return tb
}

func TestZZConformance(t *testing.T) {
	dsn := os.Getenv("H1_DSN")
	if dsn == "" {
		t.Skip()
	}
	b, err := os.ReadFile(os.Getenv("H1_CASES"))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range strings.Split(string(b), "\n====\n") {
		db, err := sql.Open("mysql", dsn)
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		db.Exec("DROP DATABASE IF EXISTS conf")
		db.Exec("CREATE DATABASE conf")
		db.Exec("USE conf")
		ok := true
		for _, p := range sqlparse.Split(c) {
			if _, err := db.Exec(p.Text); err != nil {
				t.Logf("case %d: mariadb: %v (%s)", i, err, p.Text)
				ok = false
			}
		}
		s, errs := FromDDL(statementsOf(sqlparse.NewParser(), "c.sql", c, false))
		for _, e := range errs {
			t.Logf("case %d: replay: %v", i, e)
		}
		_ = ok
		var names []string
		rows, _ := db.Query("SELECT table_name FROM information_schema.tables WHERE table_schema='conf' ORDER BY table_name")
		for rows.Next() {
			var n string
			rows.Scan(&n)
			names = append(names, n)
		}
		rows.Close()
		var got []string
		for _, tb := range s.Sorted() {
			got = append(got, tb.Name)
		}
		if d := cmp.Diff(names, got); d != "" {
			t.Errorf("case %d tables: %s", i, d)
		}
		dump, err := exec.Command("mariadb-dump", "--socket=/tmp/mdb/sock", "-uroot", "--no-data", "--databases", "conf").Output()
		if err != nil {
			t.Fatal(err)
		}
		dp := filepath.Join(t.TempDir(), "dump.sql")
		os.WriteFile(dp, dump, 0o644)
		if i == 1 {
			os.WriteFile("/tmp/h1ddl_scratch/dump1.sql", dump, 0o644)
		}
		ds, derrs, err := LoadDump(dp)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range derrs {
			t.Errorf("case %d: dump replay: %v", i, e)
		}
		for _, n := range names {
			live := liveTable(t, db, n)
			if dt := ds.Table(n); dt == nil {
				t.Errorf("case %d: dump lacks %s", i, n)
			} else {
				o := *dt
				o.Created = Pos{}
				for j, c := range live.Columns {
					if c.Default != nil && *c.Default == "NULL?" && j < len(o.Columns) {
						if o.Columns[j].Default == nil || *o.Columns[j].Default == "NULL" {
							o.Columns[j].Default = c.Default
						}
					}
				}
				if d := cmp.Diff(live, &o); d != "" {
					t.Errorf("case %d dump table %s (-live +dump):\n%s", i, n, d)
				}
			}
			off := s.Table(n)
			if off == nil {
				continue
			}
			o := *off
			o.Created = Pos{}
			// loosen NULL defaults
			for j, c := range live.Columns {
				if c.Default != nil && *c.Default == "NULL?" && j < len(o.Columns) {
					if o.Columns[j].Default == nil || *o.Columns[j].Default == "NULL" {
						c.Default = o.Columns[j].Default
					}
				}
			}
			if o.Engine == "" {
				o.Engine = "InnoDB"
			}
			if d := cmp.Diff(live, &o); d != "" {
				t.Errorf("case %d table %s (-live +offline):\n%s", i, n, d)
			}
		}
		db.Close()
	}
}
