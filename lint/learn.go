package lint

import (
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
)

// ObservationKind says what a statement showed about a column.
type ObservationKind int

// The kinds of observations vocabulary inference reads.
const (
	// ObsDecrement: an UPDATE or upsert sets the column to itself minus an amount.
	ObsDecrement ObservationKind = iota + 1
	// ObsCondition: an UPDATE sets the column and its WHERE compares the
	// column with a value (=, <>, IN): a compare-and-set of its state.
	ObsCondition
	// ObsFilter: an UPDATE's WHERE compares the column with a value while
	// writing other columns (`… AND is_deleted = 0`).
	ObsFilter
	// ObsAssign: an UPDATE or upsert sets the column; Value says to what.
	ObsAssign
	// ObsRewrite: a write code wrote sets the column to a value not
	// computed from the column itself and does not compare the column in
	// its WHERE: an UPDATE or upsert `SET c = ?` or `SET c = 3`, or an
	// entity write of a field the code set. Value is "?" (or "") for a
	// value the code computed, the literal's text for a constant. Generated
	// statements (MyBatis Generator's, goctl's) are not observed: the calls
	// that reach them are.
	ObsRewrite
	// ObsTested: host code read the column's value of a record before it
	// set the column and wrote the record (`if (o.getAuditFlag() == 1)
	// { o.setAuditFlag(2); mapper.updateById(o); }`): the write depends on
	// the value it replaces, as a WHERE comparing it would.
	ObsTested
	// ObsInsert: an INSERT of the code names the column: the code makes
	// rows with it (an order line's quantity).
	ObsInsert
	// ObsChange: an UPDATE or upsert the code wrote (not a generator's
	// statement for every table) changes the column in rows that exist.
	ObsChange
)

// Observation is one fact a statement of the code shows about a column.
type Observation struct {
	Kind          ObservationKind
	Table, Column string
	// Value is the value assigned or compared: "?" for a parameter, the
	// literal's text, or "" for any other expression.
	Value string
	File  string
	Line  int
	// Count is how many statements showed the same fact; File and Line are
	// the first of them. Zero counts as one.
	Count int
}

// A Learner infers vocabulary from the code (DESIGN §4): Observe reads one
// parsed statement of a query source and emits what it shows, Infer turns
// every observation of a run, with the schema, into the policy's inferred
// vocabulary. Observe is called from several goroutines at once and must
// not keep state.
type Learner struct {
	Observe func(st *Statement, s *schema.Schema, emit func(Observation))
	Infer   func(obs []Observation, s *schema.Schema, pol *policy.Policy) *policy.Inferred
}
