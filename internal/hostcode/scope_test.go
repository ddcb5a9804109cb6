package hostcode

import (
	"testing"

	"github.com/guard-sql/guard/internal/stmt"
)

// TestSetContexts reads a statement's context from the innermost scope
// that holds it: the last lock taken before it and not released between,
// and the transaction whose stretch holds it.
func TestSetContexts(t *testing.T) {
	outer := &Scope{Start: Pos{1, 10}, End: Pos{30, 1},
		Locks:        []Lock{{What: "Redis SETNX", At: Pos{2, 5}}, {What: "Redisson lock", At: Pos{20, 5}}},
		Releases:     []Pos{{10, 5}},
		Transactions: []Transaction{{What: "Begin()", From: Pos{4, 1}, To: Pos{30, 1}}},
	}
	inner := &Scope{Start: Pos{12, 20}, End: Pos{14, 3}}
	f := &File{Fragments: []*stmt.Fragment{
		{Line: 3, Col: 5},  // under the first lock, before the transaction
		{Line: 8, Col: 5},  // under the lock, in the transaction
		{Line: 11, Col: 5}, // the lock released at 10
		{Line: 13, Col: 5}, // in a function literal of its own: nothing
		{Line: 21, Col: 5}, // under the second lock
		{Line: 40, Col: 1}, // outside every scope
	}}
	calls := []stmt.MapperCall{{Line: 9, Col: 3}}
	SetContexts(f, calls, []*Scope{outer, inner})
	want := []*stmt.Context{
		{Lock: "Redis SETNX", LockLine: 2},
		{Lock: "Redis SETNX", LockLine: 2, Transaction: "Begin()"},
		{Transaction: "Begin()"},
		nil,
		{Lock: "Redisson lock", LockLine: 20, Transaction: "Begin()"},
		nil,
	}
	for i, fr := range f.Fragments {
		got, w := fr.Context, want[i]
		if (got == nil) != (w == nil) || got != nil && *got != *w {
			t.Errorf("fragment at %d:%d: context %+v, want %+v", fr.Line, fr.Col, got, w)
		}
	}
	if c := calls[0].Context; c == nil || c.Lock != "Redis SETNX" || c.Transaction != "Begin()" {
		t.Errorf("call: context %+v", c)
	}
}

func TestTextLooksLikeSQL(t *testing.T) {
	text := func(s string) Text {
		var out Text
		for i := 0; i < len(s); i++ {
			out = append(out, Char{B: s[i], Line: 1, Col: i + 1})
		}
		return out
	}
	for s, want := range map[string]bool{"\n\t UPDATE t SET a = 1": true, "updated rows": false, "SELECT": false, "": false} {
		if got := text(s).LooksLikeSQL(); got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
}
