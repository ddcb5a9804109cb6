package lint

import (
	"fmt"

	"github.com/guard-sql/guard/internal/stmt"
)

// MapperIndex answers the pass of a file's entity writes (Pass.MapperCalls)
// with the statements of the whole run that the writes end in. The lint
// driver implements it over every file it read; a method finding nothing
// returns nil.
type MapperIndex interface {
	// Statements returns the variants of statement id of the mapper whose
	// interface is mapper (qualified, or a simple name that one namespace
	// ends in).
	Statements(mapper, id string) []*Statement
	// ModelStatements returns the statements of method of the goctl model a
	// logic call reaches through field (l.svcCtx.OrderModel).
	ModelStatements(field, method string) []*Statement
	// ServerCalls returns the model calls the logic of RPC method makes when
	// it is called with request type req (import path + "." + type).
	ServerCalls(req, method string) []ServerCall
}

// ServerCall is a goctl model call an RPC server's logic makes, with the
// file it stands in.
type ServerCall struct {
	File string
	Call *stmt.MapperCall
}

// jpaWriteFix is the advice for an entity write through JPA: the fix is
// in the entity or the repository, not in SQL the code does not hold;
// jpaStateFix is its end for a state column, jpaCounterFix for a counter.
const (
	jpaWriteFix = "add a version to the entity (`@Version private Long version;` over a version column): JPA's " +
		"UPDATE then compares the version it read and a concurrent change fails with an OptimisticLockException to " +
		"retry; or make the change one conditional statement whose int result is compared with 1: "
	jpaCounterFix = "`@Modifying @Query(\"update Sku s set s.stock = s.stock - :n where s.id = :id and s.stock >= :n\")`"
	jpaStateFix   = "`@Modifying @Query(\"update Order o set o.status = :to where o.id = :id and o.status = :from\")`"
)

// ReportCall records a finding at a Java mapper call.
func (p *Pass) ReportCall(c *stmt.MapperCall, table, column, format string, args ...any) {
	p.ReportCallFix(c, table, column, "", format, args...)
}

// ReportCallFix is ReportCall with the fix the host code calls for; an
// empty fix leaves the rule's.
func (p *Pass) ReportCallFix(c *stmt.MapperCall, table, column, fix, format string, args ...any) {
	if fix == "" && (c.Framework == stmt.FrameworkJPA || c.Framework == stmt.FrameworkJPAFlush) {
		fix = jpaWriteFix + jpaCounterFix
		if p.Rule.Code == "GQ005" {
			fix = jpaWriteFix + jpaStateFix
		}
	}
	p.Report(Finding{
		File: p.File, Line: c.Line, Column: c.Col, EndLine: max(c.EndLine, c.Line),
		Table: table, ColumnName: column,
		Message: fmt.Sprintf(format, args...),
		Fix:     fix,
		SQL:     c.Method,
	})
}
