package jpa

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

// transactionalPackages are the packages of @Transactional.
var transactionalPackages = []string{
	"org.springframework.transaction.annotation", "jakarta.transaction", "javax.transaction",
}

// flushes finds, in the methods of a Java file that run in a transaction
// of their own, the entities read through a repository and changed by a
// setter or one of their methods with no save of them in the method: the
// write is the flush at commit. It is reported at the last change.
func flushes(s java.Syntax) []stmt.MapperCall {
	if !importsTransactional(s) {
		return nil
	}
	var out []stmt.MapperCall
	saved := savedLocals(s)
	for _, m := range s.Methods() {
		if !transactional(m) {
			continue
		}
		for _, l := range s.ReadLocals(m) {
			if saved[m.Name][l.Name] || !repositoryType(l.ReceiverType) {
				continue
			}
			rec := s.RecordIn(m, l.Name)
			call := stmt.MapperCall{
				Framework: stmt.FrameworkJPAFlush, Method: "flush", HostMethod: m.Name, Mapper: l.ReceiverType,
				Statement: "the UPDATE JPA's dirty checking sends at the commit of @Transactional " + m.Name + "()",
				Advice:    advice,
				Record:    l.Name, Entity: l.Type, RecordRead: l.Read, Sets: rec.Sets, RecordCalls: rec.Calls,
			}
			last := 0
			for _, set := range call.Sets {
				last = max(last, set.Line)
			}
			for _, rc := range call.RecordCalls {
				last = max(last, rc.Line)
			}
			if last == 0 {
				continue // read, not changed
			}
			call.Line, call.EndLine, call.Col = last, last, s.Column(m, last)
			out = append(out, call)
		}
	}
	return out
}

// savedLocals returns, by the method they stand in, the locals a method
// passes to a save (`repo.save(o)`): that call writes them, not the flush.
// Overloads of a method share its entry.
func savedLocals(s java.Syntax) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, c := range s.Calls(func(m string, _ bool) bool { return saves[m] }) {
		if name, ok := s.NameArgument(c, 0); ok {
			if out[c.Host] == nil {
				out[c.Host] = map[string]bool{}
			}
			out[c.Host][name] = true
		}
	}
	return out
}

// importsTransactional reports whether the file names a @Transactional.
func importsTransactional(s java.Syntax) bool {
	for _, p := range transactionalPackages {
		if s.Imported("Transactional") == p {
			return true
		}
	}
	return s.Annotated(".Transactional")
}

// transactional reports whether method m runs in a read-write transaction
// that Spring's proxy starts: annotated @Transactional itself, or public in
// a class annotated so, and neither read-only nor with a propagation that
// may run it outside one.
func transactional(m java.Method) bool {
	if a, ok := transactionalOf(m.Annotations); ok {
		return readWrite(a)
	}
	if !m.Public {
		return false
	}
	a, ok := transactionalOf(m.ClassAnnotations)
	return ok && readWrite(a)
}

// transactionalOf returns the @Transactional of a header, the one nearest
// the name.
func transactionalOf(as []java.Annotation) (java.Annotation, bool) {
	for _, a := range as {
		if a.Name == "Transactional" || strings.HasSuffix(a.Name, ".Transactional") {
			return a, true
		}
	}
	return java.Annotation{}, false
}

// readWrite reports whether @Transactional a starts a read-write
// transaction: no readOnly = true, no propagation other than REQUIRED or
// REQUIRES_NEW.
func readWrite(a java.Annotation) bool {
	for attr, val := range a.Args {
		switch {
		case attr == "readOnly":
			if val != "false" {
				return false
			}
		case attr == "propagation" || attr == "value" && !a.Bare:
			if !strings.HasSuffix(val, "REQUIRED") && !strings.HasSuffix(val, "REQUIRES_NEW") {
				return false
			}
		}
	}
	return true
}
