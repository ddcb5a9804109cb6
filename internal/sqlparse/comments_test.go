package sqlparse

import "testing"

func TestHints(t *testing.T) {
	text := "UPDATE /*+ COMMIT_ON_SUCCESS TARGET_AFFECT_ROW(1) */ t SET a = '/*+ not */' -- /*+ nor */\n" +
		"WHERE id = 1 /* a comment */ /*+ NO_INDEX(t) */"
	var got []string
	for h := range Hints(text) {
		got = append(got, h)
	}
	want := []string{" COMMIT_ON_SUCCESS TARGET_AFFECT_ROW(1) ", " NO_INDEX(t) "}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Hints = %q, want %q", got, want)
	}
}

func TestPostgresMark(t *testing.T) {
	for text, want := range map[string]string{
		"SELECT * FROM t WHERE id = $1":                        "$1 placeholders",
		"SELECT id::text FROM t":                               ":: casts",
		"CREATE TABLE t (id BIGSERIAL PRIMARY KEY)":            "BIGSERIAL",
		"INSERT INTO t VALUES (1) ON CONFLICT (id) DO NOTHING": "ON CONFLICT",
		"SELECT * FROM t ORDER BY a NULLS LAST":                "NULLS LAST",
		"SELECT * FROM t WHERE a = '$1' AND b = ':: x'":        "",
		"SELECT a FROM t WHERE b = ? -- $1":                    "",
		"UPDATE t SET a = a - 1 WHERE id = ?":                  "",
	} {
		if got := PostgresMark(text); got != want {
			t.Errorf("PostgresMark(%q) = %q, want %q", text, got, want)
		}
	}
}
