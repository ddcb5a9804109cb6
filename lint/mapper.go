package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/source"
)

// mbgWriteIDs are the ids of the MyBatis Generator write statements whose
// Java callers guard follows (source.MapperCall).
var mbgWriteIDs = map[string]bool{
	"updateByPrimaryKey":          true,
	"updateByPrimaryKeySelective": true,
	"updateByExample":             true,
	"updateByExampleSelective":    true,
	"deleteByExample":             true,
}

// MapperIndex holds the generated write statements of every mapper XML a run
// read, by namespace and id, so that a rule judging a Java call of a mapper
// method sees the statement the call ends in.
type MapperIndex struct {
	byID map[string][]*Statement // namespace + "#" + id
	// simple maps a namespace's last element to the namespaces ending so,
	// for a Java file whose mapper type guard could not qualify.
	simple map[string][]string
	// servers holds the goctl model calls of go-zero RPC logic methods (see
	// rpcServers).
	servers rpcServers
	// fields maps the struct fields holding a goctl model under another
	// name to its type (see GoctlStatements).
	fields map[string]string
}

// mapperStatements returns the statements of stmts that an index keeps.
func mapperStatements(stmts []*Statement) []*Statement {
	var out []*Statement
	for _, st := range stmts {
		fr := st.Fragment
		// A generated mapper's write, or a repository method's @Query.
		if fr != nil && fr.Namespace != "" && (fr.Lang == source.LangXML && mbgWriteIDs[fr.ID] || fr.Lang == source.LangJava) {
			out = append(out, st)
		} else if _, _, ok := goctlModelMethod(fr); ok {
			out = append(out, st)
		}
	}
	return out
}

// newMapperIndex indexes the kept statements of every file.
func newMapperIndex(results []fileResult) *MapperIndex {
	ix := &MapperIndex{byID: map[string][]*Statement{}, simple: map[string][]string{}, servers: newRPCServers(results), fields: goctlFieldTypes(results)}
	for _, r := range results {
		for _, st := range r.mapperStmts {
			ns, id := st.Fragment.Namespace, st.Fragment.ID
			if model, method, ok := goctlModelMethod(st.Fragment); ok {
				ns, id = model, method
			}
			key := ns + "#" + id
			if _, seen := ix.byID[key]; !seen {
				s := ns[strings.LastIndexByte(ns, '.')+1:]
				if !slices.Contains(ix.simple[s], ns) {
					ix.simple[s] = append(ix.simple[s], ns)
				}
			}
			ix.byID[key] = append(ix.byID[key], st)
		}
	}
	return ix
}

// Statements returns the variants of statement id of the mapper whose
// interface is mapper (qualified, or a simple name that one namespace ends
// in), nil when no mapper XML read holds it.
func (ix *MapperIndex) Statements(mapper, id string) []*Statement {
	if ix == nil {
		return nil
	}
	if sts := ix.byID[mapper+"#"+id]; sts != nil {
		return sts
	}
	s := mapper[strings.LastIndexByte(mapper, '.')+1:]
	if nss := ix.simple[s]; len(nss) == 1 && s == mapper { // an unqualified name, one namespace ends in it
		return ix.byID[nss[0]+"#"+id]
	}
	return nil
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
func (p *Pass) ReportCall(c *source.MapperCall, table, column, format string, args ...any) {
	p.ReportCallFix(c, table, column, "", format, args...)
}

// ReportCallFix is ReportCall with the fix the host code calls for; an
// empty fix leaves the rule's.
func (p *Pass) ReportCallFix(c *source.MapperCall, table, column, fix, format string, args ...any) {
	if fix == "" && (c.Framework == source.FrameworkJPA || c.Framework == source.FrameworkJPAFlush) {
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

// lintCalls runs the query rules on calls, the entity writes of the file
// (WrapperIndex.resolveCalls), with every mapper XML of the run indexed;
// their findings join the file's.
func (res *fileResult) lintCalls(rules []*Rule, pol *policy.Policy, sch *schema.Schema, mappers *MapperIndex, calls []source.MapperCall) {
	for _, r := range rules {
		pass := NewPass(r, pol, sch, nil, nil, nil, func(fd Finding) { res.findings = append(res.findings, fd) })
		pass.File, pass.MapperCalls, pass.Mappers = res.file.Path, calls, mappers
		if err := r.Run(pass); err != nil {
			res.err = fmt.Errorf("rule %s on %s: %w", r.Code, res.file.Path, err)
			return
		}
	}
}
