package rules

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// Learn is guard's vocabulary inference (DESIGN §4 "Vocabulary is inferred,
// then policy-tuned"): driver.Run observes every statement of the code with it
// and infers counters, state machines, flags and owned business keys before
// the rules run.
var Learn = &lint.Learner{Observe: observe, Infer: infer}

// observe reads what one write shows about its columns: decrements, the
// values it assigns and the columns its WHERE compares with a value.
func observe(st *lint.Statement, s *schema.Schema, emit func(lint.Observation)) {
	w := writeTargets(st, s)
	if w == nil || w.kind == writeDelete {
		return
	}
	add := func(kind lint.ObservationKind, c colRef, value string) {
		if c.t == nil || c.t.name == "" {
			return
		}
		emit(lint.Observation{Kind: kind, Table: c.t.tableName(), Column: c.name, Value: value, File: st.File, Line: st.Line})
	}
	// A clamped decrement (GREATEST(c - x, 0)) shows a floor the author
	// chose, not a count that must not be oversold: only plain arms count.
	for _, d := range w.decrements() {
		for _, arm := range d.arms {
			if arm.clamp == nil {
				add(lint.ObsDecrement, d.col, "")
				break
			}
		}
	}
	as := w.assignments()
	for _, a := range as {
		eachAssignedValue(a.expr, func(v string) { add(lint.ObsAssign, a.col, v) })
		if r := paramRead(st, a.expr); r != nil && r.Decrement {
			add(lint.ObsDecrement, a.col, "") // the host code decremented the value it read
		}
	}
	var compared []comparison
	for _, e := range w.filters() {
		comparedWithValues(w, e, func(c colRef, v string) { compared = append(compared, comparison{c, v}) })
	}
	observeWrites(st, w, as, compared, add)
	if w.kind != writeUpdate {
		return
	}
	for _, cv := range compared {
		kind := lint.ObsFilter
		if assignedIn(as, cv.col) {
			kind = lint.ObsCondition
		}
		add(kind, cv.col, cv.value)
	}
}

// comparison is a conjunct of a WHERE comparing a column with a value
// (comparedWithValues).
type comparison struct {
	col   colRef
	value string
}

// assignedIn reports whether one of as sets c.
func assignedIn(as []assignment, c colRef) bool {
	for _, a := range as {
		if a.col.t == c.t && strings.EqualFold(a.col.name, c.name) {
			return true
		}
	}
	return false
}

// eachAssignedValue calls fn with what an assignment writes, for the flag
// inference: "?" for a parameter, a literal's text, "" for anything else; a
// CASE contributes each branch.
func eachAssignedValue(e sqlparse.ExprNode, fn func(string)) {
	e = unparen(e)
	if ce, ok := e.(*sqlparse.CaseExpr); ok && ce != nil {
		for _, w := range ce.WhenClauses {
			if w != nil {
				eachAssignedValue(w.Result, fn)
			}
		}
		if ce.ElseClause != nil {
			eachAssignedValue(ce.ElseClause, fn)
		}
		return
	}
	fn(valueText(e))
}

// valueText names a value: "?" for a parameter, the literal's text, "" for
// any other expression.
func valueText(e sqlparse.ExprNode) string {
	e = unparen(e)
	if isParam(e) {
		return "?"
	}
	if v, ok := e.(sqlparse.ValueExpr); ok {
		switch x := v.GetValue().(type) {
		case string:
			return "'" + x + "'"
		case int64:
			return strconv.FormatInt(x, 10)
		case uint64:
			return strconv.FormatUint(x, 10)
		}
		return exprText(v)
	}
	if _, ok := numberOf(e); ok {
		return exprText(e)
	}
	return ""
}

// comparedWithValues recognises `c = v`, `v = c`, `c <> v` and `c IN (v, …)`
// with v a parameter or a literal — a conjunct that makes the write depend
// on the value c holds — and calls fn with c and each v.
func comparedWithValues(w *write, e sqlparse.ExprNode, fn func(colRef, string)) {
	switch x := unparen(e).(type) {
	case *sqlparse.BinaryOperationExpr:
		if x.Op != sqlparse.OpEQ && x.Op != sqlparse.OpNE {
			return
		}
		l, r := x.L, x.R
		if _, ok := columnOf(l); !ok {
			l, r = r, l
		}
		cn, ok := columnOf(l)
		if !ok {
			return
		}
		if v := valueText(r); v != "" {
			fn(w.ref(cn), v)
		}
	case *sqlparse.PatternInExpr:
		if x.Sel != nil {
			return
		}
		cn, ok := columnOf(x.Expr)
		if !ok {
			return
		}
		for _, item := range x.List {
			if valueText(item) == "" {
				return
			}
		}
		c := w.ref(cn)
		for _, item := range x.List {
			fn(c, valueText(item))
		}
	}
}

// infer turns the observations of a run into vocabulary.
func infer(obs []lint.Observation, s *schema.Schema, pol *policy.Policy) *policy.Inferred {
	inf := &policy.Inferred{
		Counters: map[string]*policy.Evidence{}, States: map[string]*policy.Evidence{},
		Flags: map[string]*policy.Evidence{}, Keys: map[string]*policy.Evidence{},
		References: map[string]*policy.Evidence{},
	}
	facts, order := gatherColumnFacts(obs, s)
	inferFromCode(inf, facts, order, s, pol)
	if s != nil {
		inferFromDefinitions(inf, facts, s, pol)
	}
	inferKeys(s, pol, inf)
	inferVersioned(inf, obs, s, pol)
	return inf
}

// columnFacts is what the code showed about one column, gathered over every
// observation of it before any is judged: a column is a counter, a state or
// a flag by all its uses together, not by the first one seen.
type columnFacts struct {
	table, column string
	decrement     *policy.Evidence
	condition     *policy.Evidence
	filter        *policy.Evidence
	// toggled is the first write of a literal 0 or 1 (TRUE, FALSE);
	// zero and one record that each was written.
	toggled   *policy.Evidence
	zero, one bool
	// multi is set when a value other than a parameter, 0 or 1 is
	// assigned or compared: more than an on/off switch.
	multi bool
	// stepped is the first assignment of such a value.
	stepped *policy.Evidence
	// literal is set when a literal is assigned to or compared with the
	// column: a state takes named values; a rename (SET alias = ?
	// WHERE alias = ?) moves one parameter to another.
	literal bool
	// values are the distinct constants assigned; tested is the first
	// write that depends on the value it replaces (a WHERE comparing it
	// with a constant, host code reading it first): a state by use.
	values map[string]string // lower-cased → as first written
	tested *policy.Evidence
}

// gatherColumnFacts folds the observations into facts per column, keyed by
// policy.Key, with the keys in the order first observed so that the
// evidence chosen does not depend on map order. Names are spelt as the
// schema spells them; a column the schema's table lacks is dropped.
func gatherColumnFacts(obs []lint.Observation, s *schema.Schema) (map[string]*columnFacts, []string) {
	facts := map[string]*columnFacts{}
	var order []string
	for _, o := range obs {
		table, column := o.Table, o.Column
		if t := s.Table(table); t != nil {
			if c := t.Column(column); c != nil {
				table, column = t.Name, c.Name
			} else {
				continue // the schema knows the table and not the column: a typo or an alias
			}
		}
		o.Table, o.Column = table, column
		k := policy.Key(table, column)
		f := facts[k]
		if f == nil {
			f = &columnFacts{table: table, column: column}
			facts[k] = f
			order = append(order, k)
		}
		f.add(o)
	}
	return facts, order
}

// add records what one observation of the column shows.
func (f *columnFacts) add(o lint.Observation) {
	f.addUse(o)
	switch o.Kind {
	case lint.ObsRewrite, lint.ObsTested, lint.ObsInsert, lint.ObsChange:
		return // what they show, addUse and inferVersioned read
	}
	switch o.Kind {
	case lint.ObsDecrement:
		noteEvidence(&f.decrement, o, "decremented")
	case lint.ObsCondition:
		noteEvidence(&f.condition, o, "compared and set by one UPDATE")
	case lint.ObsFilter:
		noteEvidence(&f.filter, o, "conditioned on by an UPDATE")
	case lint.ObsAssign:
		switch strings.ToLower(o.Value) {
		case "0", "'0'", "false":
			f.zero = true
			noteEvidence(&f.toggled, o, "an on/off flag: only switched between 0 and 1, never conditioned on by an UPDATE")
		case "1", "'1'", "true":
			f.one = true
			noteEvidence(&f.toggled, o, "an on/off flag: only switched between 0 and 1, never conditioned on by an UPDATE")
		}
	}
	// The empty string is no state's name: `AND tax_no = ''` is a
	// filter for rows without one (an optional tenant condition of a
	// selective update), not a transition from a named state.
	if o.Kind != lint.ObsDecrement && o.Value != "" && o.Value != "?" && o.Value != "''" {
		f.literal = true
	}
	if o.Kind != lint.ObsDecrement && !toggleValue(o.Value) {
		f.multi = true
		if o.Kind == lint.ObsAssign && o.Value != "" {
			noteEvidence(&f.stepped, o, "set to "+o.Value)
		}
	}
}

// addUse records the constants a column is set to and the writes that
// depend on its old value.
func (f *columnFacts) addUse(o lint.Observation) {
	switch o.Kind {
	case lint.ObsAssign:
		if o.Value != "" && o.Value != "?" && o.Value != "''" {
			if f.values == nil {
				f.values = map[string]string{}
			}
			if k := strings.ToLower(o.Value); f.values[k] == "" {
				f.values[k] = o.Value
			}
		}
	case lint.ObsTested:
		noteEvidence(&f.tested, o, "tested by the code before it is written")
	case lint.ObsFilter, lint.ObsCondition:
		if o.Value != "" && o.Value != "?" && o.Value != "''" {
			noteEvidence(&f.tested, o, "compared with "+o.Value+" by an UPDATE")
		}
	}
}

// usedAsState reports whether the code uses a column as a state whatever
// its name: set to two or more constants, not only 0 and 1, and tested
// for one before a write (xxx_state, audit_flag, lock_mark).
func (f *columnFacts) usedAsState() bool {
	if f.tested == nil || len(f.values) < 2 {
		return false
	}
	for v := range f.values {
		if !toggleValue(v) {
			return true
		}
	}
	return false
}

// noteEvidence counts o towards *ev, which keeps the place and reason of the
// first observation: the report cites where a use was first seen and how
// often it was seen in all.
func noteEvidence(ev **policy.Evidence, o lint.Observation, why string) {
	if *ev == nil {
		*ev = &policy.Evidence{Table: o.Table, Column: o.Column, Why: why, File: o.File, Line: o.Line}
	}
	(*ev).Count += max(o.Count, 1)
}

// inferFromCode judges each observed column by what the code did with it:
// decremented is a counter, compared and set is a state, switched between
// 0 and 1 alone is a flag.
func inferFromCode(inf *policy.Inferred, facts map[string]*columnFacts, order []string, s *schema.Schema, pol *policy.Policy) {
	vc := pol.VersionColumn()
	for _, k := range order {
		f := facts[k]
		if strings.EqualFold(f.column, vc) || identifying(s, f.table, f.column, pol) {
			continue
		}
		switch {
		case f.decrement != nil:
			if !policy.IsThreshold(f.column) {
				inf.Counters[k] = f.decrement
			}
		case f.usedAsState() && stateType(s, f.table, f.column) && !switchNamed(s, f.table, f.column) && !markOrTime(f.column) &&
			!pol.IsCounter(f.table, f.column):
			inf.States[k] = stateByUse(f)
		case !stateType(s, f.table, f.column) || notAState(s, f.table, f.column) || pol.IsCounter(f.table, f.column):
		case f.condition != nil && (f.literal || stateNamed(f.column)):
			inf.States[k] = f.condition
		case f.stepped != nil && stateNamed(f.column):
			// order_status = 2, then = 3: a column named for a state that
			// takes more values than on/off is a state machine.
			inf.States[k] = f.stepped
		case f.filter == nil && !f.multi && f.zero && f.one && pol.IsState(f.table, f.column) &&
			enumeratedStates(s, f.table, f.column) < 3:
			// Written 0 and 1, never anything else, never conditioned on,
			// and the definition lists no more than that.
			inf.Flags[k] = f.toggled
		}
	}
}

// inferFromDefinitions takes the schema's own word, where the code did not
// decide: a state-named column whose COMMENT (or ENUM) lists three or more
// values is a state machine, and one the state patterns match that lists
// two is a flag.
func inferFromDefinitions(inf *policy.Inferred, facts map[string]*columnFacts, s *schema.Schema, pol *policy.Policy) {
	vc := pol.VersionColumn()
	for _, t := range s.Sorted() {
		for _, c := range t.Columns {
			k := policy.Key(t.Name, c.Name)
			if inf.States[k] == nil && inf.Flags[k] == nil && freeText(c) && pol.IsState(t.Name, c.Name) {
				// oauth2_code.state varchar(255): the OAuth state
				// parameter, text that names no state of the row.
				inf.Flags[k] = &policy.Evidence{Table: t.Name, Column: c.Name,
					Why: fmt.Sprintf("free text (%s), not a set of states", c.ColumnType)}
				continue
			}
			if inf.States[k] != nil || inf.Flags[k] != nil || inf.Counters[k] != nil || !stateNamed(c.Name) ||
				!stateType(s, t.Name, c.Name) || notAState(s, t.Name, c.Name) || strings.EqualFold(c.Name, vc) ||
				identifying(s, t.Name, c.Name, pol) || pol.IsCounter(t.Name, c.Name) {
				continue
			}
			if f := facts[k]; f != nil && f.condition != nil {
				continue
			}
			switch n := enumeratedStates(s, t.Name, c.Name); {
			case n >= 3:
				inf.States[k] = &policy.Evidence{Table: t.Name, Column: c.Name, Why: fmt.Sprintf("its definition lists %d states", n)}
			case n == 2 && pol.IsState(t.Name, c.Name):
				if f := facts[k]; f == nil || !f.multi {
					inf.Flags[k] = &policy.Evidence{Table: t.Name, Column: c.Name, Why: "an on/off flag: its definition lists two values"}
				}
			case n < 2 && c.Boolean && pol.IsState(t.Name, c.Name):
				// eb_express.status tinyint(1) COMMENT 'is available':
				// declared as MySQL's boolean, and nothing says more.
				if f := facts[k]; f == nil || !f.multi {
					inf.Flags[k] = &policy.Evidence{Table: t.Name, Column: c.Name, Why: "an on/off flag: declared tinyint(1), MySQL's BOOLEAN"}
				}
			}
		}
	}
}

// flagPatterns name boolean columns and marks: a soft-delete mark or a
// switch, whose writes are idempotent (deleting twice deletes once), never a
// state machine however an UPDATE conditions on them.
var flagPatterns = []string{"is_*", "has_*", "*_flag", "flag", "*delete*", "*_del", "del_*", "*enabled", "*enable", "*disabled", "*visible", "*hidden", "*_switch"}

// notAState reports whether a column cannot be a state machine whatever the
// code does to it: a flag or soft-delete mark, or a time (an optimistic lock
// on update_time compares and sets it).
func notAState(s *schema.Schema, table, column string) bool {
	return flagNamed(s, table, column) || markOrTime(column)
}

// switchNamed reports whether a column is named or typed as an on/off
// switch (is_default, has_stock, enabled, tinyint(1)), which no use makes
// a state machine. A *_flag may still be one: audit_flag 0, 1, 2.
func switchNamed(s *schema.Schema, table, column string) bool {
	if policy.Match("*_flag", column) || policy.Match("flag", column) {
		return switchTyped(s, table, column)
	}
	return flagNamed(s, table, column)
}

// markOrTime reports whether a column is named as a soft-delete mark or a
// time, which no use makes a state machine.
func markOrTime(column string) bool {
	for _, p := range []string{"*_time", "*_at", "*_date", "*time", "*_ts", "*delete*", "*_del", "del_*"} {
		if policy.Match(p, column) {
			return true
		}
	}
	return false
}

// stateByUse is the evidence of a column the code uses as a state
// (usedAsState): the constants it is set to, where it is tested.
func stateByUse(f *columnFacts) *policy.Evidence {
	vals := make([]string, 0, len(f.values))
	for _, v := range f.values {
		vals = append(vals, v)
	}
	sort.Strings(vals)
	e := *f.tested
	e.Why = "set to " + strings.Join(vals, ", ") + " and " + f.tested.Why
	return &e
}

// enumeratedStates counts the values a column's definition lists: the
// members of an ENUM, or the codes its COMMENT enumerates ("0->unpaid;
// 1->paid; 2->shipped", "1 valid 2 void"). Zero when it lists none.
func enumeratedStates(s *schema.Schema, table, column string) int {
	t := s.Table(table)
	if t == nil {
		return 0
	}
	c := t.Column(column)
	if c == nil {
		return 0
	}
	if c.Type == "enum" {
		return strings.Count(c.ColumnType, "','") + 1
	}
	return commentCodes(c.Comment)
}

// commentCodes counts the distinct numeric codes a comment enumerates: a
// number standing alone (not part of a word, a decimal or a percentage)
// and followed by its meaning.
func commentCodes(comment string) int {
	seen := map[string]bool{}
	rs := []rune(comment)
	for i := 0; i < len(rs); i++ {
		if !unicode.IsDigit(rs[i]) || (i > 0 && (isASCIIAlnum(rs[i-1]) || rs[i-1] == '.')) ||
			(i > 1 && rs[i-1] == ',' && unicode.IsDigit(rs[i-2])) {
			continue
		}
		j := i
		for j < len(rs) && unicode.IsDigit(rs[j]) {
			j++
		}
		if j-i <= 6 && j < len(rs) && !isASCIIAlnum(rs[j]) && rs[j] != '.' && rs[j] != '%' && rs[j] != ',' && rs[j] != '，' {
			seen[string(rs[i:j])] = true
		}
		i = j
	}
	return len(seen)
}

func isASCIIAlnum(r rune) bool {
	return r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// flagNamed reports whether a column is a boolean flag by its name or its
// type (BOOL, BIT(1), TINYINT(1)).
func flagNamed(s *schema.Schema, table, column string) bool {
	for _, p := range flagPatterns {
		if policy.Match(p, column) {
			return true
		}
	}
	return switchTyped(s, table, column)
}

// switchTyped reports whether a column's type holds a boolean: bool,
// bit(1), tinyint(1).
func switchTyped(s *schema.Schema, table, column string) bool {
	if t := s.Table(table); t != nil {
		if c := t.Column(column); c != nil {
			switch c.Type {
			case "bool", "boolean":
				return true
			case "bit":
				return c.ColumnType == "bit(1)"
			case "tinyint":
				return strings.HasPrefix(c.ColumnType, "tinyint(1)")
			}
		}
	}
	return false
}

// stateNamed reports whether a column is named for a state: status, state,
// or any *_status / *_state.
func stateNamed(column string) bool {
	for _, p := range []string{"status", "state", "*_status", "*_state"} {
		if policy.Match(p, column) {
			return true
		}
	}
	return false
}

// toggleValue reports whether an assigned or compared value is what an
// on/off switch takes: a parameter, 0 or 1, true or false.
func toggleValue(v string) bool {
	switch strings.ToLower(v) {
	case "?", "0", "1", "'0'", "'1'", "true", "false", "boolean.true", "boolean.false":
		return true
	}
	return false
}

// identifying reports whether a column identifies rows rather than holding
// their state: a primary or unique key column, an id, a business key.
func identifying(s *schema.Schema, table, column string, pol *policy.Policy) bool {
	lc := strings.ToLower(column)
	if lc == "id" || strings.HasSuffix(lc, "_id") || pol.IsBusinessKey(table, column) {
		return true
	}
	t := s.Table(table)
	if t == nil {
		return false
	}
	for _, ix := range t.Indexes {
		if (ix.Primary || ix.Unique) && len(ix.Columns) > 0 && strings.EqualFold(ix.Columns[0], column) {
			return true
		}
	}
	return false
}

// stateType reports whether a column's type can hold a state: integers,
// short strings and enums; not times, money, text or JSON. An unknown column
// passes on its use alone.
func stateType(s *schema.Schema, table, column string) bool {
	t := s.Table(table)
	if t == nil {
		return true
	}
	c := t.Column(column)
	if c == nil {
		return true
	}
	switch c.Type {
	case "tinyint", "smallint", "mediumint", "int", "integer", "bigint", "char", "varchar", "enum", "bit", "bool", "boolean":
		return !freeText(c)
	}
	return false
}

// maxStateChars is the longest string type a state machine's column has:
// state codes are words ('PAID', 'WAIT_BUYER_PAY'), not text.
const maxStateChars = 64

// freeText reports whether column c holds text rather than a code: a TEXT,
// JSON or BLOB type, or a CHAR/VARCHAR longer than maxStateChars.
func freeText(c *schema.Column) bool {
	switch c.Type {
	case "text", "tinytext", "mediumtext", "longtext", "json", "blob", "tinyblob", "mediumblob", "longblob":
		return true
	case "char", "varchar":
		open, close := strings.IndexByte(c.ColumnType, '('), strings.IndexByte(c.ColumnType, ')')
		if open < 0 || close < open {
			return false
		}
		n, err := strconv.Atoi(c.ColumnType[open+1 : close])
		return err == nil && n > maxStateChars
	}
	return false
}

// keySuffixes are the endings of business key names; the rest of the name
// is the key's subject (order_sn: order).
var keySuffixes = []string{"_no", "_sn", "_id", "_code", "_number"}

// inferKeys decides which key-named columns are business keys: a column the
// key patterns match is a key of the table that owns it, and a reference on
// a table that points at the owner (oms_order_item.order_sn beside
// order_id, or next to a table named oms_order).
func inferKeys(s *schema.Schema, pol *policy.Policy, inf *policy.Inferred) {
	if s == nil {
		return
	}
	for _, t := range s.Sorted() {
		for _, c := range t.Columns {
			byPolicy := pol.IsBusinessKey(t.Name, c.Name)
			byInference := !byPolicy && matchesAnyKey(c.Name)
			if !byPolicy && !byInference {
				continue
			}
			k := policy.Key(t.Name, c.Name)
			if owner, why := referencedOwner(s, t, c.Name); owner != "" {
				inf.References[k] = &policy.Evidence{Table: t.Name, Column: c.Name, Why: why}
				continue
			}
			if byInference {
				inf.Keys[k] = &policy.Evidence{Table: t.Name, Column: c.Name, Why: "named like a business key, on the table that owns it"}
			}
		}
	}
}

func matchesAnyKey(col string) bool {
	if policy.IsForeignNumber(col) {
		return false
	}
	for _, p := range policy.InferredKeyPatterns {
		if policy.Match(p, col) {
			return true
		}
	}
	return false
}

// referencedOwner returns the table a key-named column of t refers to, with
// the reason, or "" when t owns the key itself.
func referencedOwner(s *schema.Schema, t *schema.Table, col string) (owner, why string) {
	subject := ""
	lc := strings.ToLower(col)
	for _, suf := range keySuffixes {
		if strings.HasSuffix(lc, suf) {
			subject = strings.TrimSuffix(lc, suf)
			break
		}
	}
	if subject == "" {
		return "", ""
	}
	// order_goods.goods_sn beside goods_id points at a goods row, even on a
	// table whose name ends with the subject.
	if ref := t.Column(subject + "_id"); ref != nil && !primaryKeyColumn(t, ref.Name) {
		return subject, "references its " + subject + " (beside " + ref.Name + ")"
	}
	if namedAfter(t.Name, subject) || nameStartsWord(t.Name, subject) {
		return "", "" // oms_order.order_sn, t_payment.pay_no: the table's own key
	}
	// A table named after the subject owns the key: t references it
	// (oms_order_item.order_sn of oms_order, third_payment.order_sn of
	// homestay_order).
	for _, u := range s.Sorted() {
		if u == t || !namedAfter(u.Name, subject) {
			continue
		}
		if c := u.Column(col); c != nil {
			return u.Name, "references " + u.Name + "." + c.Name
		}
		return u.Name, "references " + u.Name + " (a " + subject + " key on a table that is not the " + subject + ")"
	}
	// A table whose last word begins with the subject and that holds the
	// column owns it too (t_refund.pay_no of t_payment).
	for _, u := range s.Sorted() {
		if u == t || !nameStartsWord(u.Name, subject) {
			continue
		}
		if c := u.Column(col); c != nil {
			return u.Name, "references " + u.Name + "." + c.Name
		}
	}
	return "", ""
}

// unsharded is a table's name without the number of its shard: t_order_7
// is a copy of t_order.
func unsharded(table string) string {
	i := len(table)
	for i > 0 && table[i-1] >= '0' && table[i-1] <= '9' {
		i--
	}
	if i < len(table) && i > 1 && table[i-1] == '_' {
		return table[:i-1]
	}
	return table
}

// primaryKeyColumn reports whether col is part of t's primary key: a
// table's own order_id names its row, not another table's.
func primaryKeyColumn(t *schema.Table, col string) bool {
	for _, ix := range t.Indexes {
		if ix.Primary {
			for _, c := range ix.Columns {
				if strings.EqualFold(c, col) {
					return true
				}
			}
		}
	}
	return false
}

// nameStartsWord reports whether the last word of a table's name begins
// with subject: t_payment is the pay table of pay_no, t_order_item is not
// the order table.
func nameStartsWord(table, subject string) bool {
	words := strings.Split(strings.ToLower(unsharded(table)), "_")
	return strings.HasPrefix(words[len(words)-1], subject)
}

// namedAfter reports whether a table's name ends with subject as a whole
// word: oms_order, t_orders and the shard t_order_3 are named after order,
// t_order_item is not.
func namedAfter(table, subject string) bool {
	lt := strings.ToLower(unsharded(table))
	for _, s := range []string{subject, subject + "s", subject + "es"} {
		if lt == s || strings.HasSuffix(lt, "_"+s) {
			return true
		}
	}
	return false
}
