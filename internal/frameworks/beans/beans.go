// Package beans knows the properties of every Java class of a run, so
// that a record whose properties host code copied from a request object
// (`BeanUtils.copyProperties(param, product)`, ModelMapper, a MapStruct
// converter: stmt.BeanCopy) carries a set of each one the source's class
// declares or inherits. It reads each file's declarations while the file
// is extracted; the copies are completed once every file is read.
package beans

import (
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

// Name is the name the package registers with the Java reader, and the
// key of its declarations in java.File.Frameworks.
const Name = "Bean properties"

func init() {
	java.Register(java.Framework{Name: Name, Declarations: func(s java.Syntax) any {
		if cs := declarations(s.Types()); len(cs) > 0 {
			return cs
		}
		return nil
	}})
}

// class is what a file declares of a class: its package, the instance
// fields of its body, and the class it extends (qualified as the file's
// imports name it).
type class struct {
	name, pkg string
	props     []string
	super     string
}

// declarations returns the classes of a file's types, nested ones included.
func declarations(ts []java.TypeDecl) []class {
	var out []class
	for _, t := range ts {
		if t.Kind == "class" || t.Kind == "record" {
			c := class{name: t.Name, pkg: strings.TrimSuffix(strings.TrimSuffix(t.Qualified, t.Name), ".")}
			for _, f := range t.Fields {
				if !f.Static && !f.Transient && f.Name != "" {
					c.props = append(c.props, f.Name)
				}
			}
			if len(t.Extends) == 1 {
				c.super = t.Extends[0].Name
			}
			if len(c.props) > 0 || c.super != "" {
				out = append(out, c)
			}
		}
		out = append(out, declarations(t.Inner)...)
	}
	return out
}

// Index holds the classes of every file of a run by simple name.
type Index struct {
	byName map[string][]*class
}

// NewIndex indexes the declarations of files (nil entries skipped).
func NewIndex(files []*java.File) *Index {
	ix := &Index{byName: map[string][]*class{}}
	for _, f := range files {
		if f == nil {
			continue
		}
		cs, _ := f.Frameworks[Name].([]class)
		for i := range cs {
			ix.byName[cs[i].name] = append(ix.byName[cs[i].name], &cs[i])
		}
	}
	return ix
}

// lookup returns the class named simple, of package pkg when several
// share the name; nil when none, or several and pkg does not decide.
func (ix *Index) lookup(simple, pkg string) *class {
	cs := ix.byName[simple]
	if len(cs) == 1 {
		return cs[0]
	}
	for _, c := range cs {
		if pkg != "" && c.pkg == pkg {
			return c
		}
	}
	return nil
}

// Properties returns the properties of class simple (qualified by pkg,
// "" when unknown) and of the classes it extends; nil when a class of the
// chain is not one the run declares, since its properties are unknown.
func (ix *Index) Properties(simple, pkg string) []string {
	var out []string
	seen := map[string]bool{}
	for depth := 0; simple != "" && depth < 8; depth++ {
		c := ix.lookup(simple, pkg)
		if c == nil {
			return nil
		}
		for _, p := range c.props {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
		simple, pkg = "", ""
		if c.super != "" {
			i := strings.LastIndex(c.super, ".")
			simple, pkg = c.super[i+1:], ""
			if i > 0 {
				pkg = c.super[:i]
			}
		}
	}
	return out
}

// Fill adds to call c a set of each property its Copy's source carries
// that the copy does not leave out and the code does not set itself, and
// returns the sets added: the value the caller sent, written when present
// (an edit form's fields).
func (ix *Index) Fill(c *stmt.MapperCall) []stmt.PropertySet {
	cp := c.Copy
	if cp == nil {
		return nil
	}
	skip := map[string]bool{}
	for _, p := range cp.Ignored {
		skip[p] = true
	}
	for _, s := range c.Sets {
		skip[s.Property] = true
	}
	var added []stmt.PropertySet
	for _, p := range ix.Properties(cp.Class, cp.Package) {
		if skip[p] {
			continue
		}
		added = append(added, stmt.PropertySet{
			Property: p, Form: stmt.ValueOther, Optional: true, Line: cp.Line,
			Text: cp.Source + "." + getter(p) + "() (copied by " + cp.Via + " at line " + strconv.Itoa(cp.Line) + ")",
		})
	}
	c.Sets = append(c.Sets, added...)
	return added
}

// getter is the getter's name of property p.
func getter(p string) string { return "get" + strings.ToUpper(p[:1]) + p[1:] }
