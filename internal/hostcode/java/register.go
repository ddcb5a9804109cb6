package java

import (
	"sync"

	"github.com/guard-sql/guard/internal/stmt"
)

// Framework is what a framework package teaches the Java reader. It
// registers it with Register, in its init; the reader then runs every
// registered framework on every file it extracts. Each part may be nil.
type Framework struct {
	Name string
	// Declarations reads what the framework needs of a file's
	// declarations, before the file's calls are read: it may report the
	// SQL its annotations hold (Syntax.AddSQL). What it returns, unless
	// nil, is kept in File.Frameworks under Name.
	Declarations func(Syntax) any
	// Calls find the writes the framework's calls make (see Syntax).
	Calls []func(Syntax) []stmt.MapperCall
	// ReadOne returns the method when a call reads one record, ReadMany
	// when it reads records a for-each can loop over; "" otherwise.
	ReadOne, ReadMany func(ReadCall) string
	// Locks names the distributed lock a call takes, or reports that it
	// releases one, for the Context of the statements after it; it is
	// asked only of calls of the methods LockCalls names.
	Locks     func(ReadCall) (lock string, release bool)
	LockCalls []string
}

var registry struct {
	sync.Mutex
	list []Framework
	// lockCalls gathers the LockCalls of every framework.
	lockCalls map[string]bool
}

// Register adds a framework to the Java reader.
func Register(f Framework) {
	registry.Lock()
	defer registry.Unlock()
	registry.list = append(registry.list, f)
	for _, m := range f.LockCalls {
		if registry.lockCalls == nil {
			registry.lockCalls = map[string]bool{}
		}
		registry.lockCalls[m] = true
	}
}

// frameworks returns the registered frameworks.
func frameworks() []Framework {
	registry.Lock()
	defer registry.Unlock()
	return registry.list
}

// frameworkLockNames returns the methods whose calls a registered
// framework's Locks looks at; the map is shared, not to be written.
func frameworkLockNames() map[string]bool {
	registry.Lock()
	defer registry.Unlock()
	return registry.lockCalls
}

// readDeclarations runs the registered readers of declarations on the file.
func (x *javaFile) readDeclarations(f *File) {
	for _, fw := range frameworks() {
		if fw.Declarations == nil {
			continue
		}
		if v := fw.Declarations(Syntax{x}); v != nil {
			if f.Frameworks == nil {
				f.Frameworks = map[string]any{}
			}
			f.Frameworks[fw.Name] = v
		}
	}
}

// frameworkCalls runs the registered readers of calls on the file.
func (x *javaFile) frameworkCalls() []stmt.MapperCall {
	var out []stmt.MapperCall
	for _, fw := range frameworks() {
		for _, r := range fw.Calls {
			out = append(out, r(Syntax{x})...)
		}
	}
	return out
}

// frameworkReads returns the method of the first registered framework
// whose read (ReadOne or ReadMany, as pick says) c is, "" for none.
func frameworkReads(c ReadCall, pick func(Framework) func(ReadCall) string) string {
	for _, fw := range frameworks() {
		if read := pick(fw); read != nil {
			if m := read(c); m != "" {
				return m
			}
		}
	}
	return ""
}
