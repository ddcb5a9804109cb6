// Package frameworks is the seam between the lint driver and the packages
// that teach guard a framework: each framework package registers itself
// here with one line, in its init, and the driver runs every registered
// framework in its phases without naming any (see internal/driver).
//
// A framework comes in where host code calls a method whose SQL no file of
// the project spells out — tk.mybatis's generic Mapper<T> writes an UPDATE
// from the entity class — and renders that SQL, so that the rules judge the
// call as they judge a call of a statement written in a mapper XML.
package frameworks

import (
	"slices"
	"strings"
	"sync"

	"github.com/guard-sql/guard/internal/stmt"
)

// Framework is one framework package's part in a lint run.
type Framework struct {
	// Name names the framework in stmt.MapperCall.Framework.
	Name string
	// Exts are the extensions of the source files it indexes (".java").
	Exts []string
	// New returns the framework's Linker for one run.
	New func() Linker
}

// Linker is a framework's work on one lint run. The driver calls Index for
// every source file of the run with one of the framework's extensions,
// from several goroutines at once, before any file is extracted; then, once
// every file is extracted, Statements once and Resolve for each entity
// write of host code, from one goroutine.
//
// To implement it, keep in Index what the files declare (under a lock),
// render in Statements the statements the framework sends for the methods
// it generates, and in Resolve tell the driver which calls are the
// framework's: a Linker never sees the rules.
type Linker interface {
	// Index reads one source file: path is the file as findings name it.
	Index(path string, src []byte)
	// Statements returns the statements the framework generates, one
	// fragment each, with Namespace the mapper type and ID the method that
	// sends it: the driver indexes them as it indexes a mapper XML's.
	Statements() []*stmt.Fragment
	// Resolve completes an entity write of host code that the framework
	// turns into SQL (its Framework, the table, the columns of its
	// properties) and reports whether the call is the framework's.
	Resolve(c *stmt.MapperCall) bool
}

var (
	mu         sync.Mutex
	registered []Framework
)

// Register adds a framework; a framework package calls it in its init.
func Register(f Framework) {
	mu.Lock()
	defer mu.Unlock()
	registered = append(registered, f)
}

// All returns the registered frameworks, by name.
func All() []Framework {
	mu.Lock()
	defer mu.Unlock()
	out := slices.Clone(registered)
	slices.SortFunc(out, func(a, b Framework) int { return strings.Compare(a.Name, b.Name) })
	return out
}
