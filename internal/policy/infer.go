package policy

import (
	"fmt"
	"slices"
	"strings"
)

// Inferred is the vocabulary learned from how a project's code uses its
// columns (DESIGN §4 "Vocabulary is inferred, then policy-tuned"): columns the
// code decrements are counters, columns an UPDATE conditions on are state
// machines, state-named columns the code only toggles are flags, and
// business-key-named columns of tables that merely reference the key's owner
// are not keys. The [schema] heuristics and every [[table]] entry win over it.
type Inferred struct {
	// Counters, States and Flags are keyed by Key(table, column).
	Counters map[string]*Evidence
	States   map[string]*Evidence
	// Flags are columns the state heuristic matches that behave as on/off
	// switches: no UPDATE conditions on them and the code writes them only
	// from parameters or 0/1. They are not state machines.
	Flags map[string]*Evidence
	// Keys are business-key-named columns of the tables that own them.
	Keys map[string]*Evidence
	// References are business-key-named columns of tables that reference the
	// key's owner (oms_order_item.order_sn next to order_id): not keys.
	References map[string]*Evidence
	// Versioned holds, keyed by the lower-cased table name, the write that
	// makes a table need the version column: a counter or state the code
	// rewrites with a value it computed (read, decide, write back), or sets
	// to a constant where other statements write it too. Meaningful when
	// Writes is set.
	Versioned map[string]*Evidence
	// Writes is set when the code showed writes at all: a table missing
	// from Versioned then needs no version column, for every write of its
	// counters and states is relative, conditioned on the old value, or
	// absent. Without it the policy alone decides (a schema without code).
	Writes bool
	// Updated holds, keyed by Key(table, column), the columns some write
	// of the code changes in rows that exist (an UPDATE, an upsert's
	// update, an entity written back); meaningful when Writes is set.
	Updated map[string]bool
	// Inserted holds the columns some INSERT of the code names.
	Inserted map[string]bool
}

// Evidence says why a column was inferred, for messages and guard init.
type Evidence struct {
	Table, Column string
	// Why is a short phrase: "decremented", "conditioned on by an UPDATE",
	// "only toggled", "owned by oms_order".
	Why string
	// File and Line locate the first statement that showed it; empty for
	// evidence read off the schema alone.
	File string
	Line int
	// Count is how many statements showed it.
	Count int
}

// String renders the evidence as messages print it: "decremented at
// dao/OrderDao.xml:100 (3 statements)".
func (e *Evidence) String() string {
	s := e.Why
	if e.File != "" {
		s += fmt.Sprintf(" at %s:%d", e.File, e.Line)
	}
	if e.Count > 1 {
		s += fmt.Sprintf(" (%d statements)", e.Count)
	}
	return s
}

// Key is the map key of a column in Inferred.
func Key(table, column string) string {
	return strings.ToLower(table) + "." + strings.ToLower(column)
}

// InferredKeyPatterns are the business key names inference adds to the
// [schema] business_keys: serial numbers and payment references.
var InferredKeyPatterns = []string{"*_sn", "sn", "out_trade_no", "transaction_id", "trade_no"}

// Threshold names configure a counter rather than count (low_stock,
// warn_stock, min_points): they may be anything, negative included, and are
// never counters. They are low_*, min_*, max_*, warn_*, limit_*, alert_*,
// *_threshold and *_limit.
var (
	thresholdPrefixes = []string{"low_", "min_", "max_", "warn_", "limit_", "alert_"}
	thresholdSuffixes = []string{"_threshold", "_limit"}
)

// IsThreshold reports whether col is named like a threshold of a counter.
func IsThreshold(col string) bool {
	c := strings.ToLower(col)
	if c == "threshold" {
		return true
	}
	for _, p := range thresholdPrefixes {
		if strings.HasPrefix(c, p) {
			return true
		}
	}
	for _, s := range thresholdSuffixes {
		if strings.HasSuffix(c, s) {
			return true
		}
	}
	return false
}

// foreignNumberWords begin the names of numbers that identify something
// other than the row: a parcel a carrier numbered (ship_sn, express_no,
// waybill_no), a person's phone or card, a room or a seat. Many rows may
// carry the same one, so they are never business keys by a glob.
var foreignNumberWords = []string{"ship", "express", "delivery", "logistics", "waybill", "tracking", "courier",
	"phone", "mobile", "tel", "telephone", "fax", "card", "bank", "idcard", "id_card", "passport", "license",
	"licence", "seat", "room", "house", "floor", "zip", "post", "postal", "page", "line"}

// ledgerWords end the names of append-only tables: a log, a record, a
// bill, a history of movements. A counter-named column there is the balance
// or stock a movement left (eb_user_bill.balance, member_brokerage_record.
// balance), written once with the row, not a count the code moves.
var ledgerWords = []string{"log", "logs", "record", "records", "history", "histories", "bill", "bills",
	"flow", "flows", "journal", "journals", "snapshot", "snapshots", "trace", "traces"}

// IsLedger reports whether table is named like an append-only ledger (see
// ledgerWords): its last word, after the last _.
func IsLedger(table string) bool {
	t := unsharded(strings.ToLower(table))
	last := t[strings.LastIndexByte(t, '_')+1:]
	return last != t && slices.Contains(ledgerWords, last)
}

// unsharded strips a shard's number from a table name: user_record_0 is
// one copy of user_record.
func unsharded(t string) string {
	i := strings.LastIndexByte(t, '_')
	if i <= 0 || i == len(t)-1 {
		return t
	}
	for _, r := range t[i+1:] {
		if r < '0' || r > '9' {
			return t
		}
	}
	return t[:i]
}

// IsOrderRecord reports whether table is named like an order or one of its
// lines (t_order, orders, oms_order_item, seckill_orders): a counter-named
// column there (quantity, points) records what was bought, written with
// the row, not a count the code moves.
func IsOrderRecord(table string) bool {
	for _, w := range strings.Split(strings.ToLower(table), "_") {
		if w == "order" || w == "orders" {
			return true
		}
	}
	return false
}

// IsForeignNumber reports whether col is named like a number issued for
// something other than the row (see foreignNumberWords).
func IsForeignNumber(col string) bool {
	c := strings.ToLower(col)
	for _, w := range foreignNumberWords {
		if c == w || strings.HasPrefix(c, w+"_") || strings.Contains(c, "_"+w+"_") {
			return true
		}
	}
	return false
}

// matchKey matches the business key patterns, except that a glob never makes
// a foreign number a key: only a pattern naming the column exactly does.
func matchKey(patterns []string, col string) bool {
	for _, pat := range patterns {
		if Match(pat, col) && (strings.EqualFold(pat, col) || !IsForeignNumber(col)) {
			return true
		}
	}
	return false
}

// Infers reports whether vocabulary inference is on ([schema] infer, default true).
func (p *Policy) Infers() bool {
	return p.Schema.Infer == nil || *p.Schema.Infer
}

// WithInferred returns a copy of p that also uses inf; p itself is unchanged.
// A nil inf, or a policy with infer = false, returns p.
func (p *Policy) WithInferred(inf *Inferred) *Policy {
	if inf == nil || !p.Infers() {
		return p
	}
	c := *p
	c.Inferred = inf
	return &c
}

// ExplainAt is Explain for a finding at file:line: evidence that is the
// finding's own statement reads "decremented here".
func (p *Policy) ExplainAt(table, column, file string, line int) string {
	w := p.Explain(table, column)
	if w == "" {
		return ""
	}
	for _, m := range []map[string]*Evidence{p.Inferred.Counters, p.Inferred.States} {
		if e := m[Key(table, column)]; e != nil && e.File == file && e.Line == line && e.Count == 1 && strings.Contains(w, e.String()) {
			return strings.Replace(w, e.String(), e.Why+" here", 1)
		}
	}
	return w
}

// Explain returns the inference behind a classification of table.column, or
// "" when the policy's own heuristics or entries decide it: rules add it to a
// finding's message so the user sees why a column counts.
func (p *Policy) Explain(table, column string) string {
	inf := p.Inferred
	if inf == nil {
		return ""
	}
	k := Key(table, column)
	if e := inf.Counters[k]; e != nil && !p.counterByPolicy(table, column) && p.IsCounter(table, column) {
		return "inferred counter: " + e.String()
	}
	if e := inf.States[k]; e != nil && !p.stateByPolicy(table, column) && p.IsState(table, column) {
		return "inferred state: " + e.String()
	}
	if e := inf.Keys[k]; e != nil && p.IsBusinessKey(table, column) {
		return "inferred business key: " + e.String()
	}
	return ""
}

// counterByPolicy reports whether the [schema] patterns alone make col a counter.
func (p *Policy) counterByPolicy(table, col string) bool {
	return matchCounter(p.Schema.CounterColumns, col)
}

func (p *Policy) stateByPolicy(table, col string) bool {
	return matchAny(p.Schema.StateColumns, col)
}

// matchCounter matches the counter patterns, except that a glob never makes
// a threshold a counter: only a pattern naming the column exactly does.
func matchCounter(patterns []string, col string) bool {
	for _, pat := range patterns {
		if Match(pat, col) && (strings.EqualFold(pat, col) || !IsThreshold(col)) {
			return true
		}
	}
	return false
}

// Asked is the set of columns one user of a policy asked IsCounter, IsState
// or IsBusinessKey about, with the answers. guard lint runs a file's rules
// once with the policy as written and records what they asked: only a file
// that asked about a column inference then decides differently is linted
// again. The answers serve the file's many questions about the same columns.
type Asked struct {
	cols    map[[2]string]struct{}
	answers map[askedKey]bool
	// byCode are the columns asked StateByCode about, which every
	// inferred state answers otherwise than the policy as written.
	byCode map[[2]string]struct{}
}

// The classifications Asked remembers.
const (
	classCounter = iota
	classState
	classKey
)

type askedKey struct {
	class      int
	table, col string
}

// answer returns the classification of table.col, computing it once.
func (a *Asked) answer(class int, table, col string, compute func(table, col string) bool) bool {
	k := askedKey{class, table, col}
	if v, ok := a.answers[k]; ok {
		return v
	}
	a.cols[[2]string{table, col}] = struct{}{}
	v := compute(table, col)
	a.answers[k] = v
	return v
}

// Recording returns a copy of p that records the columns it is asked about
// in the returned Asked; p itself is unchanged. Neither may be shared
// between goroutines.
func (p *Policy) Recording() (*Policy, *Asked) {
	c := *p
	c.asked = &Asked{cols: map[[2]string]struct{}{}, answers: map[askedKey]bool{}, byCode: map[[2]string]struct{}{}}
	return &c, c.asked
}

// StateByCode reports whether the code showed table.col to be a state
// (Inferred.States), beyond what its name says.
func (p *Policy) StateByCode(table, col string) bool {
	if a := p.asked; a != nil {
		a.byCode[[2]string{table, col}] = struct{}{}
	}
	return p.Inferred != nil && p.Inferred.States[Key(table, col)] != nil
}

// AnyStateByCode reports whether a column asked StateByCode about is one
// of inf's inferred states: the answer the policy as written gave was no.
func (a *Asked) AnyStateByCode(inf *Inferred) bool {
	if a == nil || inf == nil {
		return false
	}
	for tc := range a.byCode {
		if inf.States[Key(tc[0], tc[1])] != nil {
			return true
		}
	}
	return false
}

// Any reports whether one of the columns asked about is in keys (of Key).
func (a *Asked) Any(keys map[string]bool) bool {
	if a == nil || len(keys) == 0 {
		return false
	}
	for tc := range a.cols {
		if keys[Key(tc[0], tc[1])] {
			return true
		}
	}
	return false
}

// Changed returns the keys of the columns whose classification inf changes
// against p: the only answers a run that asked p could have got wrong.
func (p *Policy) Changed(inf *Inferred) map[string]bool {
	out := map[string]bool{}
	if inf == nil {
		return out
	}
	with := p.WithInferred(inf)
	for _, m := range []map[string]*Evidence{inf.Counters, inf.States, inf.Flags, inf.Keys, inf.References} {
		for k, e := range m {
			if p.IsCounter(e.Table, e.Column) != with.IsCounter(e.Table, e.Column) ||
				p.IsState(e.Table, e.Column) != with.IsState(e.Table, e.Column) ||
				p.IsBusinessKey(e.Table, e.Column) != with.IsBusinessKey(e.Table, e.Column) {
				out[k] = true
			}
		}
	}
	return out
}
