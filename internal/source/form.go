package source

import "github.com/guard-sql/guard/internal/stmt"

// The statement form the extractors produce is package stmt's; these names
// let the readers spell it as they always have.
type (
	Lang        = stmt.Lang
	Segment     = stmt.Segment
	Fragment    = stmt.Fragment
	ParamRead   = stmt.ParamRead
	ParamStep   = stmt.ParamStep
	Dollar      = stmt.Dollar
	Exec        = stmt.Exec
	Suppression = stmt.Suppression
	Positioner  = stmt.Positioner
	MapperCall  = stmt.MapperCall
	RecordCall  = stmt.RecordCall
	MapperRead  = stmt.MapperRead
	ValueForm   = stmt.ValueForm
	PropertySet = stmt.PropertySet
	Criterion   = stmt.Criterion
)

// The languages, value forms, frameworks and tags of package stmt.
const (
	LangSQL  = stmt.LangSQL
	LangGo   = stmt.LangGo
	LangJava = stmt.LangJava
	LangXML  = stmt.LangXML

	ValueOther    = stmt.ValueOther
	ValueLiteral  = stmt.ValueLiteral
	ValueFromRead = stmt.ValueFromRead

	FrameworkGoctl      = stmt.FrameworkGoctl
	FrameworkGoZeroRPC  = stmt.FrameworkGoZeroRPC
	FrameworkGORM       = stmt.FrameworkGORM
	FrameworkJPA        = stmt.FrameworkJPA
	FrameworkSpringData = stmt.FrameworkSpringData
	FrameworkJPAFlush   = stmt.FrameworkJPAFlush

	ModifyingVoid   = stmt.ModifyingVoid
	BuilderJPQL     = stmt.BuilderJPQL
	VariantAbsent   = stmt.VariantAbsent
	EmptyWhenAbsent = stmt.EmptyWhenAbsent
)

// NewPositioner indexes the newlines of f.SQL (stmt.NewPositioner).
func NewPositioner(f *Fragment) *Positioner { return stmt.NewPositioner(f) }

// PropertyColumn is stmt.PropertyColumn: lockStock → lock_stock.
func PropertyColumn(property string) string { return stmt.PropertyColumn(property) }
