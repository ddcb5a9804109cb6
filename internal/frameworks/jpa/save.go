package jpa

import (
	"fmt"
	"slices"
	"sort"

	"github.com/guard-sql/guard/internal/stmt"
)

// An entity write — a save, or the flush of a change at commit — sends
// `UPDATE t SET … WHERE id = ?` with the values the entity holds: those the
// code set, and, unless the class says @DynamicUpdate, every other column
// as it was read. The check a method of the entity makes before it changes
// a field (`if (status != PAID) throw …; this.status = SHIPPED`) runs on
// the value read too, so two transactions that read the same row both pass
// it. Resolving a call records both for the findings at it.

// resolveSave fills in the table and columns of a save call, and reports
// whether the rules should judge it.
func (ix *Index) resolveSave(c *stmt.MapperCall) bool {
	if c.RecordRead == nil {
		return false // a new entity or one from elsewhere: maybe an INSERT, maybe a merge of a form
	}
	m := ix.written(c)
	if m == nil {
		return false
	}
	c.Table, c.Entity = m.Table, m.Entity.Class
	// The sets in the order of the method's lines, so that the last one wins.
	c.Sets = append(c.Sets, mutationSets(m, c)...)
	sort.SliceStable(c.Sets, func(i, j int) bool { return c.Sets[i].Line < c.Sets[j].Line })
	// The value each property has at the call: its last setter before it.
	last := map[string]int{}
	for i, s := range c.Sets {
		last[s.Property] = i
	}
	sets := c.Sets[:0:0]
	for i, s := range c.Sets {
		f, ok := m.Fields[s.Property]
		if !ok || f.Column == "" || f.Relation || last[s.Property] != i {
			continue // not persistent, not a column of its own, or set again later
		}
		if c.Columns == nil {
			c.Columns = map[string]string{}
		}
		c.Columns[s.Property] = f.Column
		sets = append(sets, s)
	}
	c.Sets = sets
	c.Rewrite = rewrite(m, c)
	return true
}

// written returns the entity a save call writes, nil when guard does not
// know it, cannot map it, or its write is safe: the entity has @Version
// (the UPDATE compares the version read) or was read under a @Lock.
func (ix *Index) written(c *stmt.MapperCall) *Mapping {
	repo := ix.Repository(c.Mapper)
	var m *Mapping
	switch {
	case repo != nil && (c.Entity == "" || c.Entity == simpleName(repo.Entity)):
		m = ix.class(repo.Entity, packageOf(repo.Interface))
	case c.Entity != "":
		m = ix.class(c.Entity, packageOf(c.Mapper))
	}
	if m == nil || ix.why[m.Entity] != "" || m.Version != "" {
		return nil
	}
	for _, r := range ix.repos {
		if r == repo || r.Entity == m.Entity.Qualified {
			if slices.Contains(r.Locked, c.RecordRead.Method) {
				return nil // SELECT … FOR UPDATE: the row waits for this transaction
			}
		}
	}
	return m
}

// mutationSets turns the calls of the entity's own methods on the record
// into the property sets their assignments make: `stock.decrease(n)`,
// whose body says `this.quantity -= n`, sets quantity from the row read.
func mutationSets(m *Mapping, c *stmt.MapperCall) []stmt.PropertySet {
	var out []stmt.PropertySet
	for _, rc := range c.RecordCalls {
		for _, mu := range m.Mutations {
			if mu.Method != rc.Method {
				continue
			}
			ps := stmt.PropertySet{Property: mu.Field, Form: mu.Form, Text: rc.Text + ", which does " + mu.Text, Line: rc.Line}
			if mu.Relative {
				ps.Form, ps.Read = stmt.ValueFromRead, c.RecordRead
			}
			if mu.Checked {
				ps.Check = fmt.Sprintf("the check of %s inside %s.%s() runs on the value read at line %d, so two transactions both pass it",
					mu.Field, m.Entity.Class, mu.Method, c.RecordRead.Line)
			}
			out = append(out, ps)
		}
	}
	return out
}

// rewrite is what the UPDATE of call c writes besides the columns the code
// set: every column entity m maps, from the values read, unless the class
// says @DynamicUpdate.
func rewrite(m *Mapping, c *stmt.MapperCall) *stmt.Rewrite {
	if m.DynamicUpdate {
		return nil
	}
	what := c.Method
	if c.Framework == stmt.FrameworkJPAFlush {
		what = "the flush at commit"
	}
	rw := &stmt.Rewrite{
		Text: fmt.Sprintf("%s rewrites every column of %s from the values read at line %d", what, m.Entity.Class, c.RecordRead.Line),
		Cure: "add @Version",
	}
	for _, f := range m.Fields {
		if f.Column != "" && !f.ID {
			rw.Columns = append(rw.Columns, f.Column)
		}
	}
	sort.Strings(rw.Columns)
	return rw
}

// inherit adds to m what class c, the entity or one of its mapped
// superclasses, declares of its writes: the assignments of its methods
// that a nearer class does not declare, and @DynamicUpdate.
func (m *Mapping) inherit(c *Entity) {
	m.DynamicUpdate = m.DynamicUpdate || c.DynamicUpdate
	nearer := map[string]bool{}
	for _, mu := range m.Mutations {
		nearer[mu.Method] = true
	}
	for _, mu := range c.Mutations {
		if !nearer[mu.Method] {
			m.Mutations = append(m.Mutations, mu)
		}
	}
}
