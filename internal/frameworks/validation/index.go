package validation

import "github.com/guard-sql/guard/internal/hostcode/java"

// Index holds what every file of a run declares that a check may rest on:
// the constraint annotation types and their validators, and the
// constrained fields of each class. A simple name that several files
// declare is a constraint (or a class) only when every declaration says
// so, since guard cannot tell which one a file means.
type Index struct {
	constraints map[string]*constraint
	validators  map[string]bool
	fields      map[string]map[string]Check
	supers      map[string]string
}

// NewIndex indexes the declarations of files (nil entries skipped).
func NewIndex(files []*java.File) *Index {
	ix := &Index{constraints: map[string]*constraint{}, validators: map[string]bool{},
		fields: map[string]map[string]Check{}, supers: map[string]string{}}
	for _, f := range files {
		if f == nil {
			continue
		}
		d, _ := f.Frameworks[Name].(*decls)
		if d == nil {
			continue
		}
		for name, k := range d.constraints {
			if _, seen := ix.constraints[name]; seen {
				k = nil
			}
			ix.constraints[name] = k
		}
		for name, ok := range d.validators {
			if prev, seen := ix.validators[name]; seen {
				ok = ok && prev
			}
			ix.validators[name] = ok
		}
		for class, fs := range d.fields {
			if _, seen := ix.fields[class]; seen {
				fs = nil
			}
			ix.fields[class] = fs
		}
		for class, super := range d.supers {
			ix.supers[class] = super
		}
	}
	return ix
}

// Checked reports whether value c is checked once every file is known:
// no part is unchecked and every need holds.
func (ix *Index) Checked(c Check) bool {
	if len(c.Unchecked) > 0 {
		return false
	}
	for _, n := range c.Needs {
		if !ix.Holds(n) {
			return false
		}
	}
	return true
}

// Unchecked returns, as written, the parts of value c that no check
// vouches for once every file is known.
func (ix *Index) Unchecked(c Check) []string {
	out := c.Unchecked[:len(c.Unchecked):len(c.Unchecked)]
	for _, n := range c.Needs {
		if !ix.Holds(n) {
			out = append(out, n.What)
		}
	}
	return out
}

// Holds reports whether need n holds in the files indexed.
func (ix *Index) Holds(n Need) bool {
	if ix == nil {
		return false
	}
	if n.Field != "" {
		return ix.fieldChecked(n.Type, n.Field)
	}
	for _, name := range n.Constraints {
		if ix.whitelist(name, 0) {
			return true
		}
	}
	return false
}

// fieldChecked reports whether class (or a class it extends) declares
// field with a constraint that holds.
func (ix *Index) fieldChecked(class, field string) bool {
	for depth := 0; class != "" && depth < maxDepth; depth++ {
		if ck, ok := ix.fields[class][field]; ok {
			for _, n := range ck.Needs {
				if n.Field != "" || !ix.Holds(n) {
					return false
				}
			}
			return len(ck.Unchecked) == 0
		}
		class = ix.supers[class]
	}
	return false
}

// whitelist reports whether the constraint annotation name accepts only
// safe text: a safe @Pattern composes it, a validator of it accepts only a
// fixed list, or a constraint composing it does.
func (ix *Index) whitelist(name string, depth int) bool {
	k := ix.constraints[name]
	if k == nil || depth >= maxDepth {
		return false
	}
	if k.safe {
		return true
	}
	for _, v := range k.validators {
		if ix.validators[v] {
			return true
		}
	}
	for _, other := range k.composes {
		if ix.whitelist(other, depth+1) {
			return true
		}
	}
	return false
}
