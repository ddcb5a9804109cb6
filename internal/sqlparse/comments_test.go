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
