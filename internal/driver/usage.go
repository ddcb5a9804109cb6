package driver

import (
	"path"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/golang"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// watchedTables names the tables whose use by the code the migration
// rules ask about: those a migration alters, drops, truncates or renames,
// with the columns it drops or renames. Nil when there are none, and the
// extraction records no use.
func watchedTables(migs []*lint.Migration) lint.Watch {
	var watch lint.Watch
	for _, m := range migs {
		for _, st := range m.Statements {
			if st.Node == nil || !changesTable(st.Node) {
				continue
			}
			if watch == nil {
				watch = lint.Watch{}
			}
			for _, t := range tablesOf(st.Node) {
				if t != "" {
					watch.Add(t, "")
				}
			}
			if a, ok := st.Node.(*sqlparse.AlterTableStmt); ok {
				for _, c := range removedColumns(a) {
					watch.Add(lint.TableKey(a.Table), c)
				}
			}
		}
	}
	return watch
}

// removedColumns names the columns an ALTER drops or renames, lower case.
func removedColumns(a *sqlparse.AlterTableStmt) []string {
	var out []string
	for _, sp := range a.Specs {
		switch sp.Tp {
		case sqlparse.AlterTableDropColumn, sqlparse.AlterTableRenameColumn, sqlparse.AlterTableChangeColumn:
			if sp.OldColumnName != nil {
				out = append(out, sp.OldColumnName.Name.L)
			}
		}
	}
	return out
}

// usageFold records what the statements of one file use of the watched
// tables, a part at a time as they are parsed, before their trees go (see
// releaseRowLoads); a nil fold records nothing.
type usageFold struct {
	watch lint.Watch
	sch   *schema.Schema
	u     *lint.Usage
	// mentions, when the watched names are words, tells the statements
	// that name none of them as a word, which are passed over unwalked.
	mentions *lint.Mentioner
	// file is the name of the last statement's file that is not a
	// migration's.
	file string
	// none is set once a statement shows that the file's statements are
	// not the code's use of the tables.
	none bool
}

// newUsageFold returns the fold of one file's uses of watch; nil when
// nothing is watched.
func newUsageFold(watch lint.Watch, s *schema.Schema) *usageFold {
	if len(watch) == 0 {
		return nil
	}
	return &usageFold{watch: watch, sch: s, u: &lint.Usage{}, mentions: watch.Mentioner()}
}

// add records the uses of part, the next statements of the file.
func (f *usageFold) add(part []*lint.Statement) {
	if f == nil || f.none {
		return
	}
	for _, st := range part {
		if st.File != f.file && schema.LooksLikeMigration(path.Base(st.File)) {
			// A migration of another folder or engine, read as a query
			// source: it changes the schema, it is not the code using it.
			f.none = true
			return
		}
		f.file = st.File // the statements of a file share its name: judged once
		if _, ok := st.Node.(*sqlparse.CreateTableStmt); ok {
			// A schema dump or seed script beside the code: its INSERTs
			// load data, they are not the code's use of the columns.
			f.none = true
			return
		}
	}
	for _, st := range part {
		if f.mentions != nil && !f.mentions.Mentions(st.SQL) {
			continue
		}
		f.u.Observe(st, f.watch, f.sch)
	}
}

// done returns the file's uses: nil when nothing is watched or the file
// is not the code's use of the tables.
func (f *usageFold) done() *lint.Usage {
	if f == nil || f.none {
		return nil
	}
	return f.u
}

// changesTable reports whether a migration statement changes or removes
// a table that exists: ALTER, DROP, TRUNCATE, RENAME TABLE.
func changesTable(n sqlparse.StmtNode) bool {
	switch n.(type) {
	case *sqlparse.AlterTableStmt, *sqlparse.DropTableStmt, *sqlparse.TruncateTableStmt, *sqlparse.RenameTableStmt:
		return true
	}
	return false
}

// modelUsage records the GORM models mapped to the watched tables: their
// fields are the columns the ORM reads and writes.
func modelUsage(models *golang.GoModels, watch lint.Watch) *lint.Usage {
	if len(watch) == 0 {
		return nil
	}
	u := &lint.Usage{}
	models.Each(func(md *golang.GoModel) {
		if md.File == "" || !models.IsGorm(md) {
			return
		}
		t, ok := models.TableOf(md)
		t = strings.ToLower(t)
		if !ok || watch[t] == nil {
			return
		}
		var cols []string
		for _, f := range models.AllFields(md) {
			cols = append(cols, f.Column)
		}
		u.AddModel(t, cols, lint.Use{File: md.File, Line: md.Line, Verb: "GORM model " + md.Name})
	})
	return u
}
