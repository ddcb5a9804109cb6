package driver

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

// WrapperIndex holds the service methods of every Java file a run read
// that wrap one generated mapper call (java.WrapperMethod), by class,
// so that a call of such a method in another file is judged as the
// generated call it ends in. One level: a wrapper is a method that calls
// the mapper itself.
type WrapperIndex struct {
	classes map[string][]java.WrapperMethod // qualified class name
	// impls maps an interface to the classes that implement it.
	impls map[string][]string
	// simple maps a class's or interface's last name element to the
	// qualified names ending so, for a caller that imports with a wildcard.
	simple map[string][]string
}

// newWrapperIndex indexes the Java types of every file.
func newWrapperIndex(results []fileResult) *WrapperIndex {
	ix := &WrapperIndex{classes: map[string][]java.WrapperMethod{}, impls: map[string][]string{}, simple: map[string][]string{}}
	addSimple := func(name string) {
		s := name[strings.LastIndexByte(name, '.')+1:]
		for _, n := range ix.simple[s] {
			if n == name {
				return
			}
		}
		ix.simple[s] = append(ix.simple[s], name)
	}
	for _, r := range results {
		if r.java == nil {
			continue
		}
		for _, jt := range r.java.Types {
			if _, seen := ix.classes[jt.Name]; seen {
				ix.classes[jt.Name] = nil // two classes of one name: guard does not pick
				continue
			}
			ix.classes[jt.Name] = jt.Wrappers
			addSimple(jt.Name)
			for _, in := range jt.Implements {
				ix.impls[in] = append(ix.impls[in], jt.Name)
				addSimple(in)
			}
		}
	}
	return ix
}

// class resolves a receiver's declared type to the one class it names:
// the class itself, or the single class that implements the interface.
func (ix *WrapperIndex) class(typ string) string {
	names := []string{typ}
	if !strings.Contains(typ, ".") && len(ix.simple[typ]) == 1 {
		names = ix.simple[typ] // a caller with a wildcard import: the one type so named
	}
	for _, n := range names {
		if _, ok := ix.classes[n]; ok {
			return n
		}
		if impls := ix.impls[n]; len(impls) == 1 {
			return impls[0]
		}
	}
	return ""
}

// method returns the wrapper method name of the class typ resolves to
// with params parameters, nil when there is none or several.
func (ix *WrapperIndex) method(typ, name string, params int) *java.WrapperMethod {
	if ix == nil || typ == "" {
		return nil
	}
	var found *java.WrapperMethod
	ws := ix.classes[ix.class(typ)]
	for i := range ws {
		if w := &ws[i]; w.Method == name && w.Params == params {
			if found != nil {
				return nil
			}
			found = w
		}
	}
	return found
}

// resolveCalls returns the entity writes of f for the rules: its mapper
// calls, with each read through a service kept only when the service
// method is a read wrapper, and its service calls that end in a generated
// write through a wrapper method, as that write made at the caller.
func (ix *WrapperIndex) resolveCalls(f *hostcode.File, jf *java.File) []stmt.MapperCall {
	var services []stmt.MapperCall
	if jf != nil {
		services = jf.ServiceCalls
	}
	if len(services) == 0 && !hasServiceRead(f.MapperCalls) {
		return f.MapperCalls
	}
	out := make([]stmt.MapperCall, 0, len(f.MapperCalls))
	for _, c := range f.MapperCalls {
		out = append(out, ix.resolveReads(c))
	}
	for _, c := range services {
		w := ix.method(c.Mapper, c.Method, c.ViaArgs)
		if w == nil || w.Write == nil || w.RecordParam != c.ViaRecord {
			continue
		}
		c = ix.resolveReads(c)
		wr := w.Write
		// The wrapper's setters run after the caller's: their value is the
		// one written.
		sets := make([]stmt.PropertySet, 0, len(c.Sets)+len(wr.Sets))
		for _, s := range c.Sets {
			if !setsProperty(wr.Sets, s.Property) {
				sets = append(sets, s)
			}
		}
		c.Sets = append(sets, wr.Sets...)
		c.Mapper, c.Method, c.Criteria, c.CriteriaKnown = wr.Mapper, wr.Method, wr.Criteria, wr.CriteriaKnown
		c.Framework, c.Table = wr.Framework, wr.Table
		if c.Entity == "" {
			c.Entity = wr.Entity
		}
		out = append(out, c)
	}
	return out
}

// resolveReads keeps the reads of c through a service method only when the
// method is a read wrapper, naming the generated read it returns.
func (ix *WrapperIndex) resolveReads(c stmt.MapperCall) stmt.MapperCall {
	c.RecordRead = ix.resolveRead(c.RecordRead)
	if !hasServiceRead([]stmt.MapperCall{c}) {
		return c
	}
	sets := make([]stmt.PropertySet, len(c.Sets))
	for i, s := range c.Sets {
		if s.Read != nil && s.Read.Service != "" {
			if s.Read = ix.resolveRead(s.Read); s.Read == nil {
				s.Form, s.CopiesRead = stmt.ValueOther, false
			}
		}
		sets[i] = s
	}
	c.Sets = sets
	return c
}

// resolveRead returns r resolved: itself for a generated read, the read
// wrapper's generated read for a read through a service, nil when the
// service method is no read wrapper.
func (ix *WrapperIndex) resolveRead(r *stmt.MapperRead) *stmt.MapperRead {
	if r == nil || r.Service == "" {
		return r
	}
	w := ix.method(r.Service, r.Method, r.Args)
	if w == nil || w.Read == "" || w.ReadList != r.List {
		return nil
	}
	rr := *r
	rr.Method = r.Via + " → " + w.ReadMapper + "." + w.Read
	rr.Service = ""
	return &rr
}

// hasServiceRead reports whether a call's record or a setter's value was
// read through a service method.
func hasServiceRead(calls []stmt.MapperCall) bool {
	for _, c := range calls {
		if c.RecordRead != nil && c.RecordRead.Service != "" {
			return true
		}
		for _, s := range c.Sets {
			if s.Read != nil && s.Read.Service != "" {
				return true
			}
		}
	}
	return false
}

func setsProperty(sets []stmt.PropertySet, property string) bool {
	for _, s := range sets {
		if s.Property == property {
			return true
		}
	}
	return false
}
