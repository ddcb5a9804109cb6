package sqlparse

import "testing"

func TestLooksLikeStatement(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		// Statements with parts pasted in at run time.
		{"update %s set %s where `id` = ?", true},
		{"select %s from %s where `id` = ? and del_state = ? limit 1", true},
		{"delete from %s where `id` = ?", true},
		{"insert into %s (%s) values (?, ?)", true},
		{"SELECT id FROM t WHERE ", true},
		{"SELECT count(*) FROM ", true},
		{"select count(1) from (%s)tmp", true},
		{"select distinct a from %s", true},
		{"UPDATE   SET a = 1 WHERE id = ?", true},
		{"SELECT a FROM t ORDER BY ", true},
		{"INSERT INTO t (a) SELECT a FROM u ON DUPLICATE KEY UPDATE a = 1", true},
		{"/* hint */ DELETE FROM t WHERE ", true},
		{"WITH x AS (SELECT 1) SELECT * FROM ", true},
		{"CREATE TABLE %s (id INT)", true},
		{"CREATE OR REPLACE VIEW v AS SELECT ", true},
		{"ALTER TABLE %s ADD COLUMN c INT", true},
		{"DROP TABLE IF EXISTS %s", true},
		{"TRUNCATE TABLE %s", true},
		// Messages that start like SQL.
		{"update homestay order state fail", false},
		{"delete soft failed", false},
		{"create homestay order fail", false},
		{"update failed: %v", false},
		{"Delete a %s from the database", false},
		{"select a file from %s", false},
		{"delete the user (and the data) from %s", false},
		{"update %s set to %v", false},
		{"insert into the queue: %v", false},
		{"Create index for %s", false},
		{"alter table %s failed", false},
		{"with %s as the key", false},
		{"drop the %s", false},
		{"truncate %s", false},
		{"SELECT", false},
		{"", false},
		{"WHERE a = 1", false},
	}
	for _, tc := range tests {
		if got := LooksLikeStatement(tc.text); got != tc.want {
			t.Errorf("LooksLikeStatement(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestHoldsStatement(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"SELECT 1", true},
		{"select now()", true},
		{"DELETE FROM t", true},
		{"UPDATE t SET a = :a WHERE id = :id", true},
		{"SELECT * FROM t WHERE id = ?1", true},
		{"SELECT 1 FROM t UNION SELECT 2 FROM u", true},
		{"DROP TABLE t", true},
		{"TRUNCATE t", true},
		{"-- name: x\nINSERT INTO t VALUES (1)", true},
		{"CREATE TRIGGER trg BEFORE UPDATE ON t FOR EACH ROW SET NEW.a = 1; DELETE FROM t", true},
		{"select user failed", false},
		{"create user failed", false},
		{"drop user failed", false},
		{"update homestay order fail", false},
		{"delete soft failed", false},
		{"UPDATE t SET a = 1 WHERE id = ? AN b = 2", false},
		{"SET NAMES utf8mb4", false},
		{"", false},
	}
	p := NewParser()
	for _, tc := range tests {
		if got := p.HoldsStatement(tc.text); got != tc.want {
			t.Errorf("HoldsStatement(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestFirstWord(t *testing.T) {
	tests := map[string]string{
		"set a = ?":            "SET",
		"\n  Set\n a = 1":      "SET",
		"/* note */ set a = 1": "SET",
		"-- note\nSET a = 1":   "SET",
		"settled = ?":          "SETTLED",
		"`set` = 1":            "",
		"(a, b)":               "",
		"   ":                  "",
		"'x' set":              "SET",
	}
	for text, want := range tests {
		if got := FirstWord(text); got != want {
			t.Errorf("FirstWord(%q) = %q, want %q", text, got, want)
		}
	}
}
