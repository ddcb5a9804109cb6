package policy

import (
	"path"
	"strings"
)

// Match reports whether name matches the case-insensitive glob pattern.
func Match(pattern, name string) bool {
	ok, err := path.Match(strings.ToLower(pattern), strings.ToLower(name))
	return err == nil && ok
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if Match(p, name) {
			return true
		}
	}
	return false
}

// Override returns the first [[table]] entry whose glob matches table, or nil.
func (p *Policy) Override(table string) *Table {
	for i := range p.Tables {
		if Match(p.Tables[i].Name, table) {
			return &p.Tables[i]
		}
	}
	return nil
}

// IsCounter reports whether column col of table must never go negative.
func (p *Policy) IsCounter(table, col string) bool {
	if a := p.asked; a != nil {
		return a.answer(classCounter, table, col, p.isCounter)
	}
	return p.isCounter(table, col)
}

func (p *Policy) isCounter(table, col string) bool {
	if strings.EqualFold(col, p.Schema.VersionColumn) {
		return false
	}
	if o := p.Override(table); o != nil && o.Counters != nil {
		return matchAny(*o.Counters, col)
	}
	inferred := p.Inferred != nil && p.Inferred.Counters[Key(table, col)] != nil && !IsThreshold(col)
	if matchCounter(p.Schema.CounterColumns, col) {
		// A ledger's balance is a snapshot, unless the code moves it.
		return !IsLedger(table) || inferred
	}
	return inferred
}

// IsBusinessKey reports whether column col of table must be unique on its own.
func (p *Policy) IsBusinessKey(table, col string) bool {
	if a := p.asked; a != nil {
		return a.answer(classKey, table, col, p.isBusinessKey)
	}
	return p.isBusinessKey(table, col)
}

func (p *Policy) isBusinessKey(table, col string) bool {
	if o := p.Override(table); o != nil && o.Keys != nil {
		return matchAny(*o.Keys, col)
	}
	if inf := p.Inferred; inf != nil {
		k := Key(table, col)
		if inf.References[k] != nil {
			return false
		}
		if inf.Keys[k] != nil {
			return true
		}
	}
	return matchKey(p.Schema.BusinessKeys, col)
}

// IsState reports whether column col of table is a state machine.
func (p *Policy) IsState(table, col string) bool {
	if a := p.asked; a != nil {
		return a.answer(classState, table, col, p.isState)
	}
	return p.isState(table, col)
}

func (p *Policy) isState(table, col string) bool {
	if o := p.Override(table); o != nil && o.States != nil {
		return matchAny(*o.States, col)
	}
	if inf := p.Inferred; inf != nil {
		k := Key(table, col)
		if inf.Flags[k] != nil {
			return false
		}
		if inf.States[k] != nil {
			return true
		}
	}
	return matchAny(p.Schema.StateColumns, col)
}

// UniqueSets returns the column sets the policy declares unique for table.
func (p *Policy) UniqueSets(table string) [][]string {
	if o := p.Override(table); o != nil {
		return o.Unique
	}
	return nil
}

// VersionColumn returns the name of the version column.
func (p *Policy) VersionColumn() string { return p.Schema.VersionColumn }

// RequireVersion reports whether a table with counter or state columns
// (guarded says so) must carry the version column. A [[table]] versioned entry
// wins over the heuristic. Where the code showed its writes, only a table
// that some write needs it for does (VersionWrite).
func (p *Policy) RequireVersion(table string, guarded bool) bool {
	if o := p.Override(table); o != nil && o.Versioned != nil {
		return *o.Versioned
	}
	if !guarded || (p.Schema.RequireVersion != nil && !*p.Schema.RequireVersion) {
		return false
	}
	return p.Inferred == nil || !p.Inferred.Writes || p.VersionWrite(table) != nil
}

// CounterInUse reports whether counter col of table may be changed after
// its row exists. A column named like a counter that the code inserts and
// never updates, or that stands on an order or its lines (IsOrderRecord)
// and is never updated, counts nothing down, and a CHECK on it guards no
// race. Any other column the code shows no write of is in use: guard may
// not read the writes (an ORM chain it cannot render). Where the code
// shows no writes at all, or a [[table]] entry names the table's
// counters, every counter is in use.
func (p *Policy) CounterInUse(table, col string) bool {
	if o := p.Override(table); o != nil && o.Counters != nil {
		return true
	}
	if p.Inferred == nil || !p.Inferred.Writes {
		return true
	}
	k := Key(table, col)
	if p.Inferred.Updated[k] {
		return true
	}
	// Inserted and never updated; or on an order or order line, whose
	// quantity records what was bought (rows an ORM creates show no INSERT).
	return !p.Inferred.Inserted[k] && !IsOrderRecord(table)
}

// VersionWrite returns the write of the code that needs table's version
// column (Inferred.Versioned), nil when none was seen.
func (p *Policy) VersionWrite(table string) *Evidence {
	if p.Inferred == nil {
		return nil
	}
	return p.Inferred.Versioned[strings.ToLower(table)]
}

// RequireStrictMode reports whether live servers must run a strict sql_mode.
func (p *Policy) RequireStrictMode() bool {
	return p.Server.RequireStrictMode == nil || *p.Server.RequireStrictMode
}
