package driver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/mybatisxml"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// writeIndex holds the generated write statements of every mapper XML a run
// read, by namespace and id, so that a rule judging a Java call of a mapper
// method sees the statement the call ends in.
type writeIndex struct {
	byID map[string][]*lint.Statement // namespace + "#" + id
	// simple maps a namespace's last element to the namespaces ending so,
	// for a Java file whose mapper type guard could not qualify.
	simple map[string][]string
	// servers holds the goctl model calls of go-zero RPC logic methods (see
	// rpcServers).
	servers rpcServers
	// fields maps the struct fields holding a goctl model under another
	// name to its type (see ModelStatements).
	fields map[string]string
}

// mapperStatements returns the statements of stmts that an index keeps.
func mapperStatements(stmts []*lint.Statement) []*lint.Statement {
	var out []*lint.Statement
	for _, st := range stmts {
		fr := st.Fragment
		if fr == nil {
			continue
		}
		// A generated mapper's write, or a repository method's @Query.
		_, generated := mybatisxml.GeneratedCalls[fr.ID]
		if fr.Namespace != "" && (fr.Lang == stmt.LangXML && generated || fr.Lang == stmt.LangJava) {
			out = append(out, st)
		} else if _, _, ok := goctlModelMethod(fr); ok {
			out = append(out, st)
		}
	}
	return out
}

// newWriteIndex indexes the kept statements of every file.
func newWriteIndex(results []fileResult) *writeIndex {
	ix := &writeIndex{byID: map[string][]*lint.Statement{}, simple: map[string][]string{}, servers: newRPCServers(results), fields: goctlFieldTypes(results)}
	for _, r := range results {
		for _, st := range r.mapperStmts {
			ix.add(st)
		}
	}
	return ix
}

// add indexes st by its namespace and id.
func (ix *writeIndex) add(st *lint.Statement) {
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

// Statements returns the variants of statement id of the mapper whose
// interface is mapper (qualified, or a simple name that one namespace ends
// in), nil when no mapper XML read holds it.
func (ix *writeIndex) Statements(mapper, id string) []*lint.Statement {
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

// lintCalls runs the query rules on calls, the entity writes of the file
// (WrapperIndex.resolveCalls), with every mapper XML of the run indexed;
// their findings join the file's.
func (res *fileResult) lintCalls(rules []*lint.Rule, pol *policy.Policy, sch *schema.Schema, mappers *writeIndex, calls []stmt.MapperCall) {
	for _, r := range rules {
		pass := lint.NewPass(r, pol, sch, nil, nil, nil, func(fd lint.Finding) { res.findings = append(res.findings, fd) })
		pass.File, pass.MapperCalls, pass.Mappers = res.file.Path, calls, mappers
		if err := r.Run(pass); err != nil {
			res.err = fmt.Errorf("rule %s on %s: %w", r.Code, res.file.Path, err)
			return
		}
	}
}
