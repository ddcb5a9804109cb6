package driver

import (
	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/hostcode/golang"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// goModelIndex indexes the model types the Go sources declare (per[i]
// those of one source, read by golang.ReadGoModels as the extraction
// passed): a GORM write names a type (Model(&model.Product{})) that
// another file declares with its TableName method and column tags. The
// schema tells GORM's plural default table name from the singular.
func goModelIndex(per []*golang.GoFileModels, sch *schema.Schema) *golang.GoModels {
	m := &golang.GoModels{HasTable: func(name string) bool { return sch != nil && sch.Table(name) != nil }}
	for _, fm := range per {
		if fm != nil {
			m.Add(fm)
		}
	}
	return m
}

// observeCalls adds what a file's entity writes show to its observations:
// a field the code decrements before writing the record back
// (`inv.Stocks -= n; db.Save(&inv)`) is a decrement of its column, as
// `stocks = stocks - ?` would be.
func observeCalls(f *hostcode.File, fold *observationFold) {
	for i := range f.MapperCalls {
		if c := &f.MapperCalls[i]; c.Table != "" {
			observeCall(f.Path, c, c.Table, fold.add)
		}
	}
}

// observeCall emits what entity write c, which writes table, shows: the
// fields it decrements, and every field the code set and the write sends
// back (the version inference's rewrites: read, change, write back).
func observeCall(file string, c *stmt.MapperCall, table string, emit func(lint.Observation)) {
	for _, s := range c.Sets {
		col := c.Column(s.Property)
		if s.Decrement {
			emit(lint.Observation{Kind: lint.ObsDecrement, Table: table, Column: col, File: file, Line: s.Line})
		}
		if c.Kind != stmt.CallWritesRecord || s.CopiesRead {
			continue
		}
		v := "?"
		if s.Form == stmt.ValueLiteral {
			v = s.Text
			emit(lint.Observation{Kind: lint.ObsAssign, Table: table, Column: col, Value: v, File: file, Line: s.Line})
		}
		emit(lint.Observation{Kind: lint.ObsRewrite, Table: table, Column: col, Value: v, File: file, Line: s.Line})
		if s.Consulted {
			emit(lint.Observation{Kind: lint.ObsTested, Table: table, Column: col, File: file, Line: s.Line})
		}
	}
}

// observeMapperCalls adds what the calls of generated mappers show, whose
// table only the mapper XML names (a call of updateByPrimaryKeySelective
// on a PmsSkuStockMapper): once every file is extracted, each call is
// joined to its statement in the index mappers returns.
func observeMapperCalls(results []fileResult, mappers func() *writeIndex) []lint.Observation {
	var out []lint.Observation
	for i := range results {
		f := results[i].file
		if f == nil || results[i].err != nil {
			continue
		}
		for k := range f.MapperCalls {
			c := &f.MapperCalls[k]
			if c.Table != "" || c.Kind != stmt.CallWritesRecord || len(c.Sets) == 0 {
				continue
			}
			if sts := mappers().Statements(c.Mapper, c.Method); len(sts) > 0 {
				if table := updatedTable(sts[0]); table != "" {
					observeCall(f.Path, c, table, func(o lint.Observation) { out = append(out, o) })
				}
			}
		}
	}
	return out
}

// updatedTable is the table an UPDATE of a single table writes, "" for any
// other statement.
func updatedTable(st *lint.Statement) string {
	u, ok := st.Node.(*sqlparse.UpdateStmt)
	if !ok || u.TableRefs == nil || u.TableRefs.TableRefs == nil || u.TableRefs.TableRefs.Right != nil {
		return ""
	}
	if ts, ok := u.TableRefs.TableRefs.Left.(*sqlparse.TableSource); ok {
		if tn, ok := ts.Source.(*sqlparse.TableName); ok {
			return tn.Name.O
		}
	}
	return ""
}
