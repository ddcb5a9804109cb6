package jpa

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

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
			call.Framework, call.Kind, call.Record, call.Advice = stmt.FrameworkJPA, stmt.CallWritesRecord, name, advice
			call.Entity, call.RecordRead, call.Sets, call.RecordCalls = rec.Type, rec.Read, rec.Sets, rec.Calls
		}
		out = append(out, call)
	}
	return out
}

// writeFix is the advice for an entity write through JPA: the fix is
// in the entity or the repository, not in SQL the code does not hold;
// stateFix is its end for a state column, counterFix for a counter.
const (
	writeFix = "add a version to the entity (`@Version private Long version;` over a version column): JPA's " +
		"UPDATE then compares the version it read and a concurrent change fails with an OptimisticLockException to " +
		"retry; or make the change one conditional statement whose int result is compared with 1: "
	counterFix = "`@Modifying @Query(\"update Sku s set s.stock = s.stock - :n where s.id = :id and s.stock >= :n\")`"
	stateFix   = "`@Modifying @Query(\"update Order o set o.status = :to where o.id = :id and o.status = :from\")`"
)

// advice is the fix of a finding at a JPA entity write.
var advice = &stmt.Advice{Counter: writeFix + counterFix, State: writeFix + stateFix}
