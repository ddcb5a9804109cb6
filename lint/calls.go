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

// ReportCall records a finding at a Java mapper call.
func (p *Pass) ReportCall(c *stmt.MapperCall, table, column, format string, args ...any) {
	p.ReportCallFix(c, table, column, "", format, args...)
}

// ReportCallFix is ReportCall with the fix the host code calls for; an
// empty fix leaves the call's own advice (stmt.Advice.Counter and State),
// else the rule's.
func (p *Pass) ReportCallFix(c *stmt.MapperCall, table, column, fix, format string, args ...any) {
	if fix == "" && c.Advice != nil && c.Advice.Counter != "" {
		fix = c.Advice.Counter
		if p.Rule.Code == "GQ005" {
			fix = c.Advice.State
		}
	}
	p.Report(Finding{
		File: p.File, Line: c.Line, Column: c.Col, EndLine: max(c.EndLine, c.Line),
		Table: table, ColumnName: column,
		Message: fmt.Sprintf(format, args...) + p.contextNote(c.Context),
		Fix:     fix,
		SQL:     c.Method,
	})
}

// contextNote is what a race finding adds of the lock the host code holds
// around the statement: that it does not make the statement safe, and
// neither does the transaction around it. Empty for other rules, and
// where no lock is seen.
func (p *Pass) contextNote(c *stmt.Context) string {
	if c == nil || c.Lock == "" || p.Rule == nil || !p.Rule.Races {
		return ""
	}
	note := fmt.Sprintf("; the %s taken at line %d does not make it safe", c.Lock, c.LockLine)
	if c.Transaction != "" {
		note = fmt.Sprintf("; neither the %s taken at line %d nor the transaction it runs in (%s) makes it safe", c.Lock, c.LockLine, c.Transaction)
	}
	return note + ": the lock can expire before the write, be lost in a failover or be released by another holder, " +
		"and only the statement itself can refuse what another writer changed"
}
