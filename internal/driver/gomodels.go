package driver

import (
	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/hostcode/golang"
	"github.com/guard-sql/guard/internal/schema"
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
	for _, c := range f.MapperCalls {
		if c.Table == "" {
			continue
		}
		for _, s := range c.Sets {
			if s.Decrement {
				fold.add(lint.Observation{Kind: lint.ObsDecrement, Table: c.Table, Column: stmt.PropertyColumn(s.Property), File: f.Path, Line: s.Line})
			}
		}
	}
}
