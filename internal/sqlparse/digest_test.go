package sqlparse

import "testing"

func TestNormalize(t *testing.T) {
	same := [][2]string{
		{"UPDATE t SET a = a - ? WHERE id = ?", "update t\n  set a=a-1 -- take one\n where id = 7"},
		{"SELECT * FROM t WHERE id IN (?, ?)", "select * from t where id in (1,2,3)"},
		{"UPDATE t SET a = :qty WHERE id = :id", "UPDATE t SET a = ? WHERE id = ?"},
	}
	for _, c := range same {
		if a, b := Normalize(c[0]), Normalize(c[1]); a != b {
			t.Errorf("Normalize(%q) = %q, Normalize(%q) = %q: want equal", c[0], a, c[1], b)
		}
	}
	differ := [][2]string{
		{"UPDATE t SET a = a - ? WHERE id = ?", "UPDATE t SET a = a - ? WHERE id = ? AND a >= ?"},
		{"UPDATE t SET a = ? WHERE id = ?", "UPDATE u SET a = ? WHERE id = ?"},
	}
	for _, c := range differ {
		if Normalize(c[0]) == Normalize(c[1]) {
			t.Errorf("Normalize(%q) = Normalize(%q) = %q: want different", c[0], c[1], Normalize(c[0]))
		}
	}
}

func TestReadDigest(t *testing.T) {
	cases := []struct {
		text, sql, verb string
		truncated       bool
	}{
		{"UPDATE `t_inventory` SET `inventory` = `inventory` - ? WHERE `id` = ?", "UPDATE `t_inventory` SET `inventory` = `inventory` - ? WHERE `id` = ?", "UPDATE", false},
		{"SELECT * FROM `t` WHERE ID IN (...) ", "SELECT * FROM `t` WHERE ID IN (?  ) ", "SELECT", false},
		{"INSERT INTO `t` VALUES (...) /* , ... */ ", "INSERT INTO `t` VALUES (?  ) /* , ... */ ", "INSERT", false},
		{"UPDATE `t` SET `a` = ? WHERE `b` IN (...) AND `c` = ...", "UPDATE `t` SET `a` = ? WHERE `b` IN (?  ) AND `c` = ...", "UPDATE", true},
		{"SELECT `a` . `b` FROM `a`", "SELECT `a` . `b` FROM `a`", "SELECT", false},
		{"SELECT @@GLOBAL . `sql_mode` , @@SESSION . `sql_mode`", "SELECT @@GLOBAL.`sql_mode`   , @@SESSION.`sql_mode`  ", "SELECT", false},
	}
	p := NewParser()
	for _, c := range cases {
		d := ReadDigest(c.text)
		if d.SQL != c.sql || d.Verb != c.verb || d.Truncated != c.truncated {
			t.Errorf("ReadDigest(%q) = %+v, want SQL %q, verb %s, truncated %v", c.text, d, c.sql, c.verb, c.truncated)
		}
		if !d.Truncated {
			if _, err := p.Parse(d.SQL); err != nil {
				t.Errorf("ReadDigest(%q).SQL does not parse: %v", c.text, err)
			}
		}
	}
}

func TestWrittenTable(t *testing.T) {
	cases := []struct {
		sql, schema, table string
		ok                 bool
	}{
		{"INSERT INTO `t` ( `id` ) VALUES (...)", "", "t", true},
		{"INSERT LOW_PRIORITY IGNORE INTO `shop` . `_t_new` ( `id` , `stock` ) SELECT `id` , ...", "shop", "_t_new", true},
		{"REPLACE INTO shop._t_new (id) VALUES (?)", "shop", "_t_new", true},
		{"insert ignore guard_migration_history (version, name) values (?, ?)", "", "guard_migration_history", true},
		{"INSERT /* hint */ DELAYED INTO `a` SET `x` = ?", "", "a", true},
		{"CREATE TABLE `shop` . `_t_new` ( `id` INT8 (?) NOT NULL , PRIMARY KEY ( `id` ) ) ENGINE = `InnoDB`", "shop", "_t_new", true},
		{"CREATE TEMPORARY TABLE IF NOT EXISTS tmp LIKE t", "", "tmp", true},
		{"ALTER TABLE `shop` . `_t_new` ADD COLUMN `note` VARCHARACTER (?) NULL", "shop", "_t_new", true},
		{"ALTER ONLINE IGNORE TABLE t ADD INDEX (a)", "", "t", true},
		{"ALTER TEMPORARY TABLE t ADD INDEX (a)", "", "", false},
		{"CREATE VIEW v AS SELECT 1", "", "", false},
		{"CREATE UNIQUE INDEX i ON t (a)", "", "", false},
		{"UPDATE `t` SET `a` = ?", "", "", false},
		{"INSERT INTO", "", "", false},
		{"", "", "", false},
	}
	for _, c := range cases {
		schema, table, ok := WrittenTable(c.sql)
		if schema != c.schema || table != c.table || ok != c.ok {
			t.Errorf("WrittenTable(%q) = %q, %q, %v; want %q, %q, %v", c.sql, schema, table, ok, c.schema, c.table, c.ok)
		}
	}
}
