package hostcode

import "github.com/guard-sql/guard/internal/stmt"

// Pos is a place in a file: a line and a column, both from 1.
type Pos struct{ Line, Col int }

// Before reports whether p comes before q.
func (p Pos) Before(q Pos) bool { return p.Line < q.Line || p.Line == q.Line && p.Col < q.Col }

// Scope is what a reader saw one method or function of host code hold
// around its statements (stmt.Context): the locks it takes, where it
// releases one, and the transaction it runs them in.
type Scope struct {
	// Start and End are the braces of its body.
	Start, End Pos
	Locks      []Lock
	// Releases are the calls that release a lock: one between a lock and
	// a statement leaves the statement outside it.
	Releases []Pos
	// Transactions are the stretches of the body a transaction covers,
	// with what opens it.
	Transactions []Transaction
}

// Lock is a lock a scope takes: what it is, and where.
type Lock struct {
	What string
	At   Pos
}

// Transaction is a stretch of a scope that runs in a transaction, and
// what opens it (@Transactional, Begin()).
type Transaction struct {
	What     string
	From, To Pos
}

// SetContexts sets the Context of the fragments and entity writes of f
// from the innermost of scopes (in file order) that holds each.
func SetContexts(f *File, extra []stmt.MapperCall, scopes []*Scope) {
	at := func(p Pos) *stmt.Context {
		var in *Scope
		for _, s := range scopes {
			if !p.Before(s.Start) && !s.End.Before(p) {
				in = s
			}
		}
		if in == nil {
			return nil
		}
		return in.context(p)
	}
	for _, fr := range f.Fragments {
		fr.Context = at(Pos{fr.Line, fr.Col})
	}
	for _, calls := range [][]stmt.MapperCall{f.MapperCalls, extra} {
		for i := range calls {
			calls[i].Context = at(Pos{calls[i].Line, calls[i].Col})
		}
	}
}

// context is what encloses a statement at p of the scope: the last lock
// taken before it and not released between, and the transaction.
func (s *Scope) context(p Pos) *stmt.Context {
	var c stmt.Context
	for _, t := range s.Transactions {
		if t.From.Before(p) && p.Before(t.To) {
			c.Transaction = t.What
		}
	}
	for _, l := range s.Locks {
		if !l.At.Before(p) {
			continue
		}
		released := false
		for _, r := range s.Releases {
			released = released || l.At.Before(r) && r.Before(p)
		}
		if !released {
			c.Lock, c.LockLine = l.What, l.At.Line
		}
	}
	if c == (stmt.Context{}) {
		return nil
	}
	return &c
}
