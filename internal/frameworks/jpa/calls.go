package jpa

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

func init() {
	java.RegisterCalls(repositoryCalls)
	java.RegisterCalls(flushes)
}

// saves are the repository methods that write an entity.
var saves = map[string]bool{"save": true, "saveAndFlush": true}

// repositoryType reports whether a declared type names a Spring Data
// repository.
func repositoryType(t string) bool {
	return strings.HasSuffix(t, "Repository") || strings.HasSuffix(t, "Repo")
}

// repositoryCalls finds the calls on Spring Data repositories in the
// methods of a Java file: the entity writes (save, saveAndFlush) with what
// the method shows of the entity, and the calls of other methods that are
// statements of their own, whose result nobody reads (Index.ResolveCalls
// keeps those of repositories the run declares).
func repositoryCalls(s java.Syntax) []stmt.MapperCall {
	var out []stmt.MapperCall
	for _, c := range s.Calls(func(m string, statement bool) bool { return saves[m] || statement }) {
		if !repositoryType(c.ReceiverType) {
			continue
		}
		call := stmt.MapperCall{
			Mapper: c.ReceiverType, Method: c.Method, HostMethod: c.Host, Framework: stmt.FrameworkSpringData, Kind: stmt.CallRunsStatement,
			Line: c.Line, Col: c.Col, EndLine: c.EndLine, ResultDiscarded: c.Statement,
		}
		if saves[c.Method] {
			name, ok := s.NameArgument(c, 0)
			if !ok {
				continue
			}
			rec := s.Record(c, name)
			call.Framework, call.Kind, call.Record, call.Advice = stmt.FrameworkJPA, stmt.CallWritesRecord, name, java.JPAAdvice
			call.Entity, call.RecordRead, call.Sets, call.RecordCalls = rec.Type, rec.Read, rec.Sets, rec.Calls
		}
		out = append(out, call)
	}
	return out
}
