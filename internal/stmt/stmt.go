// Package stmt is the one form in which a statement found in host code
// reaches the rules: its SQL (as written, or rendered by guard from a
// builder or ORM call, said so), where it stands, what the host code shows
// of the values bound to its placeholders, how its result is used, and the
// entity writes of ORM and generated-mapper calls. Readers (internal/hostcode)
// produce it; rules (lint/rules) read it with the schema model and never
// see a reader.
package stmt

import "sort"

// Lang names the language of the file a fragment was found in.
type Lang string

// The languages guard extracts SQL from.
const (
	LangSQL  Lang = "sql"
	LangGo   Lang = "go"
	LangJava Lang = "java"
	LangXML  Lang = "xml"
)

// Segment maps a run of SQL text back to the file: the byte at SQL offset Off
// stands at file Line:Col, and the bytes after it follow on (a newline moves to
// the next line, column 1) until the next segment.
type Segment struct {
	Off  int
	Line int
	Col  int
}

// Fragment is a piece of SQL found in a file. It may hold several statements
// (a .sql file) or exactly one (a Go string, a MyBatis statement).
type Fragment struct {
	File string
	Lang Lang
	// SQL is the text to split and parse; empty when Unchecked is set.
	SQL string
	// Segments maps offsets in SQL to file positions; sorted by Off, the first has Off 0.
	Segments []Segment
	// Line is the line of the construct holding the SQL (the Go call or
	// declaration, the Java annotation, the XML element); a guard:ignore comment
	// on the line before it applies to the fragment.
	Line int
	// EndLine is the last line of the construct.
	EndLine int
	// Unchecked, when set, says why the SQL cannot be checked (built at run
	// time, or a file that does not parse); Line/Col give where.
	Unchecked string
	// Col is the column of the construct, used with Unchecked.
	Col int
	// Dollar lists the MyBatis ${…} substitutions in the statement.
	Dollar []Dollar
	// ID names the statement in its host: the MyBatis id, the Java method, the Go function.
	ID string
	// ParameterType is the parameterType of a MyBatis mapper statement
	// (com.x.model.PmsBrandExample); empty elsewhere.
	ParameterType string
	// Namespace is the namespace of the MyBatis mapper holding the statement
	// (the mapper interface's qualified name); empty elsewhere.
	Namespace string
	// Variant describes which form of a dynamic MyBatis statement this is, e.g.
	// "with every optional condition absent"; empty for static SQL.
	Variant string
	// WhereFromCaller is set on a MyBatis Generator ByExample statement: its
	// WHERE is built at run time from the Example object its caller passes,
	// so the text shows a neutral stand-in (or nothing) where the caller's
	// conditions go. A rule must not conclude that a predicate is missing.
	WhereFromCaller bool
	// EmptiedClause names the <set> or <trim> this variant renders empty
	// because every <if> inside it is absent, e.g. "<set> at line 12", or the
	// absent <if> that held the statement's SET keyword. MyBatis sends such
	// SQL as it is and the server refuses it, so a parse error of this variant
	// says nothing about the statement once another variant parses.
	EmptiedClause string
	// EngineBranches is set on every variant of a MyBatis statement whose
	// <if> or <when> tests pick the database it runs on (`_databaseId ==
	// 'oracle'`, `dbType == 1`): a variant that does not parse as MySQL is
	// then another engine's branch, once a variant of the statement parses.
	EngineBranches bool
	// Generated is the header of a generated file the SQL stands in (Go's
	// `// Code generated … DO NOT EDIT.`), or the mark of a statement MyBatis
	// Generator wrote (`@mbg.generated`); empty for SQL a person writes:
	// advice to edit the statement belongs to the generator's template.
	Generated string
	// Exec describes how Go code runs the SQL; nil outside Go or when unknown.
	Exec *Exec
	// ParamSteps are what the host code shows of the values it binds to the
	// statement's placeholders: that one is another plus one (a version the
	// code bumps before writing it back with the version it read).
	ParamSteps []ParamStep
	// Builder names the host-code construct the SQL was rendered from when
	// it is not text in the file: "MyBatis-Plus LambdaUpdateWrapper chain",
	// "GORM chain", "Spring Data @Query (JPQL)". Empty for SQL written out.
	// Findings on such a statement stand at the host line and say the SQL
	// is guard's rendering.
	Builder string
	// ParamReads are what the host code shows of where bound values come
	// from: a placeholder bound to a value computed from a record the
	// function read (`goodsInfo.StockNum - n` after db.First(&goodsInfo)).
	ParamReads []ParamRead
	// Context is what encloses the statement where the host code runs it;
	// nil when the reader saw nothing.
	Context *Context
	// ParamSources are the placeholders that bind a parameter of the
	// function running the statement, so that the values its callers pass
	// can be followed (see NegatedArg).
	ParamSources []ParamSource
	// Negated are the placeholders some caller of that function binds to a
	// negated amount: `c = c + ?` with `-n` is a decrement. The lint driver
	// sets them once every file is read.
	Negated []NegatedParam
}

// ParamSource says that placeholder Param (numbered from 0) binds argument
// Arg (from 0) of the function or method Func, by name, or the property
// Prop of that argument.
type ParamSource struct {
	Param, Arg int
	Func       string
	// Params is how many parameters Func takes.
	Params int
	// Prop is the property of the argument the placeholder reads (#{delta}
	// of a mapper method taking one parameter object); empty for the
	// argument itself.
	Prop string
	// Name is set when the reader knows the value only by the name the
	// statement gives it (a mapper XML's #{delta} or #{dto.delta}, whose
	// method another file declares): Arg is then -1 and Params 0 until the
	// lint driver resolves the name with the method's parameters.
	Name string
}

// NegatedArg is a call passing a negated amount (-n, -1 * n, 0 - n) as
// argument Arg of the function or method Func, by name.
type NegatedArg struct {
	Func string
	// Arg is the argument's position, Args how many the call passes.
	Arg, Args int
	// Prop is set when the argument is an object the caller set property
	// Prop of to a negated amount before the call (dto.setDelta(-qty);
	// mapper.addStock(dto)); empty when the argument itself is negated.
	Prop string
	Text string
	File string
	Line int
}

// NegatedParam is a placeholder a caller binds to a negated amount, and
// where, in words ("receiver.go:44 passes -1*n").
type NegatedParam struct {
	Param int
	Call  string
}

// Context is what the host code holds around a statement or an entity
// write: a distributed lock it takes before, in the same method, and the
// transaction the method runs in. Readers say what they saw; a race
// finding names them, since they are what its author believed safe.
type Context struct {
	// Lock names the lock (a Redis SET NX, a Redisson lock, a redsync
	// mutex) and LockLine the line that takes it; empty when none is seen.
	Lock     string
	LockLine int
	// Transaction names what runs the method in a transaction
	// (@Transactional, Begin(), Transaction(func…)); empty when none is
	// seen.
	Transaction string
}

// ParamRead says that placeholder Param (numbered from 0 in the order of
// the text) binds Text, a value computed from Read. Decrement is set when
// the value is the read value of the column it is written to, minus an
// amount: the code decrements that column.
type ParamRead struct {
	Param     int
	Read      MapperRead
	Text      string
	Decrement bool
}

// ParamStep says that the host code binds to placeholder Param (numbered
// from 0 in the order of the text) the value it binds to placeholder From,
// plus one.
type ParamStep struct {
	Param, From int
}

// Dollar is one MyBatis ${…} substitution.
type Dollar struct {
	Expr string
	Line int
	Col  int
	// CallerSupplied names the property of a MyBatis Generator Example that
	// carries this clause (e.g. "orderByClause" for ${orderByClause}): its text
	// is whatever the caller set, a constant unless some caller passes another
	// string. Empty for every other substitution.
	CallerSupplied string
}

// Exec tells how host code runs a statement and uses its result.
type Exec struct {
	// Method is the database method called (Exec, ExecContext, NamedExec, …).
	Method string
	// ResultChecked reports whether the function compares the result's
	// RowsAffected() (any comparison counts).
	ResultChecked bool
	// ResultDiscarded reports whether the result is dropped (assigned to _ or
	// not assigned at all).
	ResultDiscarded bool
	// Returns says what the call gives back to tell a refusal from success.
	Returns Returns
}

// Returns is what a call that runs a statement gives back.
type Returns uint8

// The results of a call.
const (
	// ReturnsResult is a database/sql Result: RowsAffected() is the count.
	ReturnsResult Returns = iota
	// ReturnsHandle is a query builder's handle whose Error is the error
	// and RowsAffected the count (GORM's *gorm.DB).
	ReturnsHandle
	// ReturnsCount is the count of the rows changed, or whether one was
	// (a Java int or boolean).
	ReturnsCount
	// ReturnsNothing is nothing: a void method, whose callers cannot tell.
	ReturnsNothing
)

// Suppression is a guard:ignore comment.
type Suppression struct {
	Code   string
	Reason string
	Line   int
	Col    int
}

// Pos returns the file line and column of byte offset off in f.SQL. To
// position many offsets of one fragment, use a Positioner.
func (f *Fragment) Pos(off int) (line, col int) {
	return NewPositioner(f).Pos(off)
}

// Positioner maps offsets of one fragment's SQL to file positions, with an
// index of the newlines so that positioning every statement of a large file
// stays linear.
type Positioner struct {
	f        *Fragment
	newlines []int
}

// NewPositioner indexes the newlines of f.SQL.
func NewPositioner(f *Fragment) *Positioner {
	p := &Positioner{f: f}
	for i := 0; i < len(f.SQL); i++ {
		if f.SQL[i] == '\n' {
			p.newlines = append(p.newlines, i)
		}
	}
	return p
}

// Pos returns the file line and column of byte offset off in the fragment's SQL.
func (p *Positioner) Pos(off int) (line, col int) {
	f := p.f
	if len(f.Segments) == 0 {
		return f.Line, max(f.Col, 1)
	}
	i := sort.Search(len(f.Segments), func(i int) bool { return f.Segments[i].Off > off }) - 1
	if i < 0 {
		i = 0
	}
	s := f.Segments[i]
	if off > len(f.SQL) {
		off = len(f.SQL)
	}
	if off < s.Off {
		return s.Line, s.Col
	}
	// The newlines in [s.Off, off) move down from the segment's start.
	lo := sort.SearchInts(p.newlines, s.Off)
	hi := sort.SearchInts(p.newlines, off)
	if nl := hi - lo; nl > 0 {
		return s.Line + nl, off - p.newlines[hi-1]
	}
	return s.Line, s.Col + (off - s.Off)
}

// SortFragments orders the fragments of a file by where they stand, line
// then column; fragments at one place keep their order.
func SortFragments(frs []*Fragment) {
	sort.SliceStable(frs, func(i, j int) bool {
		a, b := frs[i], frs[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}
