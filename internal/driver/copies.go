package driver

import (
	"github.com/guard-sql/guard/internal/frameworks/beans"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// copies completes the entity writes whose record the code copied from
// another object (stmt.MapperCall.Copy) with the properties the source's
// class declares in some file of the run, and observes the sets added to
// a write whose table the host code names: the extract phase observed its
// own sets already.
func (r *run) copies() error {
	var ix *beans.Index
	for i := range r.results {
		fr := &r.results[i]
		if fr.err != nil || fr.file == nil || fr.java == nil {
			continue
		}
		fill := func(calls []stmt.MapperCall, observe bool) {
			for k := range calls {
				c := &calls[k]
				if c.Copy == nil {
					continue
				}
				if ix == nil {
					ix = beans.NewIndex(r.javaFiles())
				}
				added := ix.Fill(c)
				if observe && c.Table != "" && len(added) > 0 {
					only := *c
					only.Sets = added
					observeCall(fr.file.Path, &only, c.Table, func(o lint.Observation) { fr.observations = append(fr.observations, o) })
				}
			}
		}
		fill(fr.file.MapperCalls, true)
		fill(fr.java.ServiceCalls, false)
	}
	return nil
}
