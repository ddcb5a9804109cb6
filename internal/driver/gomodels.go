package driver

import (
	"path/filepath"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/hostcode/golang"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// readGoModels indexes the model types of every Go source before any file
// is extracted: a GORM write names a type (Model(&model.Product{})) that
// another file declares with its TableName method and column tags. Only
// files that mention gorm, TableName or `db` tags are parsed; the schema
// tells GORM's plural default table name from the singular.
func readGoModels(sources []string, sch *schema.Schema, tx *texts) *golang.GoModels {
	m := &golang.GoModels{HasTable: func(name string) bool { return sch != nil && sch.Table(name) != nil }}
	var goFiles []string
	for _, p := range sources {
		if strings.EqualFold(filepath.Ext(p), ".go") {
			goFiles = append(goFiles, p)
		}
	}
	if len(goFiles) == 0 {
		return m
	}
	per := make([]*golang.GoFileModels, len(goFiles))
	forEach(len(goFiles), noState, func(_ struct{}, i int) {
		src, err := tx.keep(goFiles[i])
		if err != nil || !golang.GoModelsWorthReading(src) {
			return // an unreadable file is reported when it is extracted
		}
		per[i] = golang.ReadGoModels(lint.DisplayPath(goFiles[i]), src)
	})
	for _, fm := range per {
		m.Add(fm)
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
