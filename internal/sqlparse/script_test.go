package sqlparse

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitScript(t *testing.T) {
	trigger := "CREATE TRIGGER trg BEFORE UPDATE ON t FOR EACH ROW BEGIN\n  IF NEW.q < 0 THEN\n    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'q; < 0';\n  END IF;\nEND"
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"plain statements", "SELECT 1; UPDATE t SET a = 1;", []string{"SELECT 1", "UPDATE t SET a = 1"}},
		{"trigger with BEGIN", trigger + ";\nSELECT 2;", []string{trigger, "SELECT 2"}},
		{"trigger with a bare IF", "CREATE TRIGGER trg BEFORE INSERT ON t FOR EACH ROW IF NEW.q < 0 THEN SIGNAL SQLSTATE '45000'; END IF; SELECT 3",
			[]string{"CREATE TRIGGER trg BEFORE INSERT ON t FOR EACH ROW IF NEW.q < 0 THEN SIGNAL SQLSTATE '45000'; END IF", "SELECT 3"}},
		{"trigger of one statement", "CREATE TRIGGER trg BEFORE INSERT ON t FOR EACH ROW SET NEW.q = IF(NEW.q < 0, 0, NEW.q); SELECT 4",
			[]string{"CREATE TRIGGER trg BEFORE INSERT ON t FOR EACH ROW SET NEW.q = IF(NEW.q < 0, 0, NEW.q)", "SELECT 4"}},
		{"IF NOT EXISTS header", "CREATE TRIGGER IF NOT EXISTS trg BEFORE INSERT ON t FOR EACH ROW SET NEW.q = 1; SELECT 5",
			[]string{"CREATE TRIGGER IF NOT EXISTS trg BEFORE INSERT ON t FOR EACH ROW SET NEW.q = 1", "SELECT 5"}},
		{"definer and nested blocks", "CREATE DEFINER=`root`@`%` PROCEDURE p(IN n INT)\nBEGIN\n  DECLARE i INT DEFAULT 0;\n  lbl: LOOP\n    SET i = i + 1;\n    CASE WHEN i > n THEN LEAVE lbl; ELSE ITERATE lbl; END CASE;\n  END LOOP lbl;\n  WHILE i > 0 DO SET i = i - 1; END WHILE;\n  REPEAT SET i = i + 1; UNTIL i > 3 END REPEAT;\n  SELECT REPEAT('a;', 2), CASE i WHEN 1 THEN 'x' END;\nEND;\nDROP TABLE x",
			[]string{"CREATE DEFINER=`root`@`%` PROCEDURE p(IN n INT)\nBEGIN\n  DECLARE i INT DEFAULT 0;\n  lbl: LOOP\n    SET i = i + 1;\n    CASE WHEN i > n THEN LEAVE lbl; ELSE ITERATE lbl; END CASE;\n  END LOOP lbl;\n  WHILE i > 0 DO SET i = i - 1; END WHILE;\n  REPEAT SET i = i + 1; UNTIL i > 3 END REPEAT;\n  SELECT REPEAT('a;', 2), CASE i WHEN 1 THEN 'x' END;\nEND", "DROP TABLE x"}},
		{"string definer", "CREATE DEFINER='u'@'localhost' TRIGGER trg AFTER DELETE ON t FOR EACH ROW BEGIN DELETE FROM u; END; SELECT 6",
			[]string{"CREATE DEFINER='u'@'localhost' TRIGGER trg AFTER DELETE ON t FOR EACH ROW BEGIN DELETE FROM u; END", "SELECT 6"}},
		{"anonymous block", "BEGIN NOT ATOMIC SELECT 1; SELECT 2; END; SELECT 7", []string{"BEGIN NOT ATOMIC SELECT 1; SELECT 2; END", "SELECT 7"}},
		{"transaction BEGIN is no block", "BEGIN; UPDATE t SET a = 1; COMMIT", []string{"BEGIN", "UPDATE t SET a = 1", "COMMIT"}},
		{"unterminated body runs to the end", "CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2", []string{"CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2"}},
		{"delimiter keeps working", "DELIMITER $$\n" + trigger + "$$\nDELIMITER ;\nSELECT 8;", []string{trigger, "SELECT 8"}},
		{"function with IF statement body", "CREATE FUNCTION f(x INT) RETURNS INT IF x > 0 THEN RETURN 1; ELSE RETURN 0; END IF; SELECT 9",
			[]string{"CREATE FUNCTION f(x INT) RETURNS INT IF x > 0 THEN RETURN 1; ELSE RETURN 0; END IF", "SELECT 9"}},
		{"executable comment header", "/*!50003 CREATE*/ /*!50017 DEFINER=`root`@`localhost`*/ /*!50003 TRIGGER trg BEFORE INSERT ON t FOR EACH ROW BEGIN SET NEW.a = 1; END */; SELECT 10",
			[]string{"/*!50003 CREATE*/ /*!50017 DEFINER=`root`@`localhost`*/ /*!50003 TRIGGER trg BEFORE INSERT ON t FOR EACH ROW BEGIN SET NEW.a = 1; END */", "SELECT 10"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pieces := SplitScript(tt.in)
			var got []string
			for _, p := range pieces {
				got = append(got, p.Text)
				if !strings.HasPrefix(tt.in[p.Offset:], p.Text) {
					t.Errorf("piece %q does not stand at offset %d", p.Text, p.Offset)
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("SplitScript (-want +got):\n%s", d)
			}
		})
	}
}

func TestReadProgram(t *testing.T) {
	tests := []struct {
		sql  string
		want Program
		ok   bool
	}{
		{"CREATE TRIGGER `trg_a` BEFORE UPDATE ON `shop`.`t_inventory` FOR EACH ROW SET NEW.a = 1",
			Program{Verb: "CREATE", Kind: "TRIGGER", Name: "trg_a", Timing: "BEFORE", Event: "UPDATE", TableSchema: "shop", Table: "t_inventory"}, true},
		{"create definer = CURRENT_USER() trigger if not exists s.tr after insert on t for each row begin end",
			Program{Verb: "CREATE", Kind: "TRIGGER", Schema: "s", Name: "tr", Timing: "AFTER", Event: "INSERT", Table: "t"}, true},
		{"CREATE DEFINER='u'@'%' TRIGGER tr BEFORE DELETE ON t FOR EACH ROW SET @x = 1",
			Program{Verb: "CREATE", Kind: "TRIGGER", Name: "tr", Timing: "BEFORE", Event: "DELETE", Table: "t"}, true},
		{"CREATE DEFINER=root@localhost TRIGGER tr BEFORE DELETE ON t FOR EACH ROW SET @x = 1",
			Program{Verb: "CREATE", Kind: "TRIGGER", Name: "tr", Timing: "BEFORE", Event: "DELETE", Table: "t"}, true},
		{"DROP TRIGGER IF EXISTS `a``b`", Program{Verb: "DROP", Kind: "TRIGGER", Name: "a`b"}, true},
		{"CREATE OR REPLACE ALGORITHM = MERGE SQL SECURITY INVOKER VIEW v AS SELECT 1", Program{Verb: "CREATE", Kind: "VIEW", Name: "v"}, true},
		{"ALTER EVENT e DISABLE", Program{Verb: "ALTER", Kind: "EVENT", Name: "e"}, true},
		{"CREATE TRIGGER tr DURING UPDATE ON t FOR EACH ROW SET @x = 1", Program{}, false},
		{"CREATE TRIGGER", Program{}, false},
		{"CREATE TABLE t (a INT)", Program{}, false},
		{"DROP TABLE t", Program{}, false},
		{"SELECT 1", Program{}, false},
	}
	for _, tt := range tests {
		got, ok := ReadProgram(tt.sql)
		if ok != tt.ok {
			t.Errorf("ReadProgram(%q) ok = %v, want %v", tt.sql, ok, tt.ok)
			continue
		}
		if d := cmp.Diff(tt.want, got); ok && d != "" {
			t.Errorf("ReadProgram(%q) (-want +got):\n%s", tt.sql, d)
		}
	}
}

func TestIsSetPersist(t *testing.T) {
	tests := map[string]bool{
		"SET PERSIST sql_mode = 'STRICT_TRANS_TABLES'":         true,
		"set persist_only max_connections = 10":                true,
		"SET @@PERSIST.sql_mode = 'STRICT_ALL_TABLES'":         true,
		"SET GLOBAL sql_mode = 'STRICT_TRANS_TABLES'":          false,
		"SET @persist = 1":                                     false,
		"/* why */ SET PERSIST sql_mode = 'STRICT_ALL_TABLES'": true,
		"SELECT 'SET PERSIST'":                                 false,
	}
	for sql, want := range tests {
		if got := IsSetPersist(sql); got != want {
			t.Errorf("IsSetPersist(%q) = %v, want %v", sql, got, want)
		}
	}
}

func FuzzSplitScript(f *testing.F) {
	for _, s := range []string{
		"CREATE TRIGGER trg BEFORE UPDATE ON t FOR EACH ROW BEGIN IF NEW.q < 0 THEN SIGNAL SQLSTATE '45000'; END IF; END; SELECT 1",
		"CREATE PROCEDURE p() BEGIN lbl: LOOP LEAVE lbl; END LOOP; END",
		"BEGIN NOT ATOMIC SELECT 1; END",
		"DELIMITER //\nCREATE FUNCTION f() RETURNS INT RETURN 1//\n",
		"/*!50003 CREATE*/ /*!50003 TRIGGER t BEFORE INSERT ON x FOR EACH ROW BEGIN END */;",
		"CREATE DEFINER='u'@'%' TRIGGER `a``b` AFTER DELETE ON s.t FOR EACH ROW SET @x := 1",
		"SET @@PERSIST.sql_mode = 'x'",
		"CREATE TRIGGER x BEFORE INSERT ON `t",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		pieces := SplitScript(text)
		last := -1
		for _, p := range pieces {
			if p.Offset <= last || p.Offset+len(p.Text) > len(text) || text[p.Offset:p.Offset+len(p.Text)] != p.Text {
				t.Fatalf("piece %q at %d is not a slice of the text after %d", p.Text, p.Offset, last)
			}
			last = p.Offset + len(p.Text) - 1
			ReadProgram(p.Text)
			IsSetPersist(p.Text)
		}
	})
}
