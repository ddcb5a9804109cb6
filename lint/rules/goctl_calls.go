package rules

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// go-zero logic writes through goctl models: `p.Stock -= n;
// l.svcCtx.ProductModel.Update(l.ctx, p)` sends the generated
// `update t_product set … where id = ?` with a value computed from the
// FindOne before it. The model's statement stands in another package; lint
// indexes it by model name (ProductModel) and method, and the rules of
// mapper_calls.go judge the call at the logic line from what that statement
// compares. A client's RPC call whose request struct carries such a value
// (`UpdateRequest{Stock: r.Stock - 1}`) is judged by the model call the
// server's logic for that RPC makes with it.

// goctlWrite resolves a goctl model call to the one UPDATE the model method
// sends. A method the index does not hold (a model outside the project),
// one whose statements guard cannot read, or one sending several writes or
// a write to different tables in different copies of the model, is left
// alone: whether its WHERE compares anything is not known.
func goctlWrite(pass *lint.Pass, c *stmt.MapperCall) (mapperWrite, bool) {
	mw := mapperWrite{call: c}
	if lockedRead(pass, c.RecordRead) {
		return mw, false
	}
	for _, s := range c.Sets {
		if lockedRead(pass, s.Read) {
			return mw, false
		}
	}
	var first *lint.Statement
	for _, st := range pass.Mappers.ModelStatements(c.Mapper, c.Method) {
		if st.Node == nil {
			return mw, false
		}
		w := writeTargets(st, pass.Schema)
		if w == nil || w.kind != writeUpdate && len(w.targets) == 0 {
			continue // the method's read
		}
		if w.kind != writeUpdate || len(w.targets) != 1 {
			return mw, false
		}
		if first != nil {
			if st.File == first.File || st.SQL != first.SQL {
				return mw, false // two writes, or copies of the model that differ
			}
			continue // the same method of a copy of the model
		}
		first, mw.t, mw.w = st, w.targets[0], w
		mw.statement = fmt.Sprintf("%s.%s → %s (%s:%d)", c.Mapper, c.Method, st.Fragment.ID, st.File, st.Line)
	}
	return mw, first != nil
}

// lockedRead reports whether a read went through a model method whose
// SELECT locks the row (`FOR UPDATE`): in the transaction the write shares,
// what was read stays current, and guard does not claim otherwise.
func lockedRead(pass *lint.Pass, r *stmt.MapperRead) bool {
	if r == nil {
		return false
	}
	model, method, ok := strings.Cut(r.Method, ".")
	if !ok {
		return false
	}
	for _, st := range pass.Mappers.ModelStatements(model, method) {
		if st.Node != nil && firstLockingSelect(st.Node) != nil {
			return true
		}
	}
	return false
}

// rpcCounterWrites reports (GQ003) a counter a client sends in an RPC
// request struct, computed from a read (`Stock: r.Stock - 1` after r was
// read through the same or another RPC), when the server's logic for that
// RPC copies the field into its record and writes it by a model method
// whose WHERE compares neither the counter nor the version.
func rpcCounterWrites(pass *lint.Pass) {
	for i := range pass.MapperCalls {
		c := &pass.MapperCalls[i]
		if c.Kind != stmt.CallRequest {
			continue
		}
		done := map[string]bool{}
		for _, sc := range pass.Mappers.ServerCalls(c.Mapper, c.Method) {
			mw, ok := goctlWrite(pass, sc.Call)
			if !ok {
				continue
			}
			for _, s := range sc.Call.Sets {
				sent, ok := requestSet(c, s.Param)
				if !ok {
					continue
				}
				col := stmt.PropertyColumn(s.Property)
				if mw.t.table != nil {
					tc := mw.t.table.Column(col)
					if tc == nil {
						continue
					}
					col = tc.Name
				}
				if done[col] || !mw.bindsColumn(col) || !isCounter(pass, colRef{w: mw.w, t: mw.t, name: col}) || mw.guardedBy(pass, col) {
					continue
				}
				done[col] = true
				table := mw.t.tableName()
				pass.ReportCallFix(c, table, col, goctlFix(pass, &mw, col, true),
					"counter %s is set to %s, computed from %s, sent as %s.%s to RPC %s, whose logic "+
						"(%s:%d) writes it by %s without `%s = ?` in WHERE: a concurrent change between "+
						"the read and this write is lost (lost update)",
					qualified(table, col), sent.Text, readText(sent.Read), c.Entity, s.Param, c.Method,
					sc.File, sc.Call.Line, mw.statement, pass.Policy.VersionColumn())
			}
		}
	}
}

// requestSet returns the field of the RPC call's request struct the
// server copies (param), when the client computed it from a read.
func requestSet(c *stmt.MapperCall, param string) (stmt.PropertySet, bool) {
	if param == "" {
		return stmt.PropertySet{}, false
	}
	for _, s := range c.Sets {
		if s.Property == param {
			return s, s.Form == stmt.ValueFromRead && !s.CopiesRead
		}
	}
	return stmt.PropertySet{}, false
}

// bindsColumn reports whether the model statement of mw sets column col to a
// bound value (`inventory = ?`): the record's field then is what is
// written. A hand-written method may take the record and write other
// columns, or compute the column in SQL.
func (mw *mapperWrite) bindsColumn(col string) bool {
	for _, a := range mw.w.assignments() {
		if a.col.t == mw.t && strings.EqualFold(a.col.name, col) {
			return isParam(a.expr)
		}
	}
	return false
}

// goctlFix is the fix of a finding at a goctl model call (or at the RPC
// call that ends in one): what to call instead. Other frameworks get
// entityFix.
func goctlFix(pass *lint.Pass, mw *mapperWrite, col string, counter bool) string {
	if mw.call.Kind != stmt.CallModelMethod {
		return entityFix(pass, mw, col, counter)
	}
	table, vc := mw.t.tableName(), pass.Policy.VersionColumn()
	key := rowKey(mw.w, mw.t)
	var fix string
	if counter {
		fix = fmt.Sprintf("add a model method that lets the WHERE refuse an oversell, `%s`, and compare its RowsAffected (== 1 is success)",
			guardedDecrementSQL(table, key, col, "?"))
	} else {
		fix = fmt.Sprintf("add a model method whose WHERE names the state left, `UPDATE %s SET %s = ? WHERE %s AND %s = ?`, "+
			"and compare its RowsAffected (0: a concurrent writer moved the state first)", schema.QuoteIdent(table), col, key, col)
	}
	switch {
	case pass.Mappers.ModelStatements(mw.call.Mapper, "UpdateWithVersion") != nil:
		fix = fmt.Sprintf("call the model's UpdateWithVersion (a compare-and-set on %s) with the record read, and retry or refuse on "+
			"its no-rows error; or %s", vc, fix)
	case mw.t.table != nil && !lacksVersion(mw.t, vc):
		fix = fmt.Sprintf("add a model method that compares the version read, `%s`, and retry when RowsAffected == 0; or %s",
			casSQL(table, key, col, vc), fix)
	}
	return fix
}

// entityFix is the fix of a finding at an entity write, in the table's own
// names: one conditional statement in place of the read-modify-write, or a
// compare of the version read, said as the call's framework says them
// (stmt.Advice; a generated mapper's without one). "" when the call brings
// its whole fix, which the pass gives, and for a table guard does not know.
func entityFix(pass *lint.Pass, mw *mapperWrite, col string, counter bool) string {
	table, vc := mw.t.tableName(), pass.Policy.VersionColumn()
	if table == "" {
		return ""
	}
	key := rowKey(mw.w, mw.t)
	var via, cas string
	switch adv := mw.call.Advice; {
	case adv != nil && adv.Counter != "":
		return "" // the call's own fix (Pass.ReportCallFix)
	case adv != nil:
		via, cas = adv.Via, fmt.Sprintf(adv.CAS, vc, exportedName(vc))
	default:
		via = "a mapper statement of its own"
		if !mw.byExample() {
			via += " (the generated ByPrimaryKey WHERE names the key only)"
		}
		cas = "compare the " + vc + " read in the WHERE: `" + casSQL(table, key, col, vc) + "`"
	}
	var fix string
	if counter {
		fix = fmt.Sprintf("make the change one conditional statement, `%s`, through %s, and compare the rows it changed (1 is success)",
			guardedDecrementSQL(table, key, col, "?"), via)
	} else {
		fix = fmt.Sprintf("name the state left in the WHERE, `UPDATE %s SET %s = ? WHERE %s AND %s = ?`, through %s, and compare the rows it "+
			"changed (0: a concurrent writer moved the state first)", schema.QuoteIdent(table), col, key, col, via)
	}
	if !lacksVersion(mw.t, vc) {
		fix += "; or " + cas + ", and retry or refuse when no row changed"
	}
	return fix
}

// exportedName is a snake_case column as a Go field name: version → Version.
func exportedName(col string) string {
	var b strings.Builder
	for _, part := range strings.Split(col, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}
