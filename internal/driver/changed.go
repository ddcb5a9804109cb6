package driver

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// LineRange is the lines From through To of a file, both included.
type LineRange struct{ From, To int }

// WholeFile is the range of every line of a file: a file that is new.
var WholeFile = LineRange{From: 1, To: math.MaxInt}

// Changes are the lines a change touched (guard lint --new-from-rev): only
// the findings whose statement lines meet them are reported, and the
// findings of schema rules only for the tables whose DDL they meet.
type Changes struct {
	files map[string][]LineRange
	// rev and filesAt say what a folder held at the revision the changes
	// are counted from (see Since); nil filesAt knows nothing of it.
	rev     string
	filesAt func(dir string) ([]string, error)
}

// Since records the revision the changes are counted from, and how to list
// the files a folder held there (absolute paths, the folder's own files
// only, none when it did not exist): the migration rules compare a
// folder's new migrations with the ones it had (GM008).
func (c *Changes) Since(rev string, filesAt func(dir string) ([]string, error)) *Changes {
	c.rev, c.filesAt = rev, filesAt
	return c
}

// migrationsBefore sets Before on each migration of migs: the up files its
// folder held at the revision of Since. Without one it does nothing.
func (c *Changes) migrationsBefore(migs []*lint.Migration) error {
	if c == nil || c.filesAt == nil {
		return nil
	}
	byDir := map[string]*lint.MigrationsAt{}
	for _, m := range migs {
		dir := m.Dir()
		at, ok := byDir[dir]
		if !ok {
			paths, err := c.filesAt(filepath.FromSlash(dir))
			if err != nil {
				return fmt.Errorf("migrations of %s at %s: %w", dir, c.rev, err)
			}
			at = &lint.MigrationsAt{Rev: c.rev}
			for _, p := range paths {
				if v, up, ok := schema.IsMigrationName(filepath.Base(p)); ok && up {
					at.Files = append(at.Files, lint.MigrationFileAt{File: lint.DisplayPath(p), Version: v})
				}
			}
			sort.SliceStable(at.Files, func(i, j int) bool { return at.Files[i].Version < at.Files[j].Version })
			byDir[dir] = at
		}
		m.Before = at
	}
	return nil
}

// NewChanges returns the changes of the files named by their paths (as
// given to the walk, relative to the current directory or absolute).
func NewChanges(files map[string][]LineRange) *Changes {
	c := &Changes{files: map[string][]LineRange{}}
	for p, rs := range files {
		d := lint.DisplayPath(p)
		c.files[d] = append(c.files[d], rs...)
	}
	for _, rs := range c.files {
		sort.Slice(rs, func(i, j int) bool { return rs[i].From < rs[j].From })
	}
	return c
}

// touches reports whether lines from through to of file changed.
func (c *Changes) touches(file string, from, to int) bool {
	to = max(to, from)
	for _, r := range c.files[file] {
		if r.From <= to && from <= r.To {
			return true
		}
	}
	return false
}

// filter keeps the findings on changed lines; those of schema rules stand
// at a table's CREATE TABLE, and are kept when DDL of the table changed.
func (c *Changes) filter(fs []lint.Finding, rules []*lint.Rule, migs []*lint.Migration, given *givenSchema, sch *schema.Schema) []lint.Finding {
	schemaRule := map[string]bool{}
	for _, r := range rules {
		schemaRule[r.Code] = r.Kind == lint.KindSchema
	}
	tables := c.changedTables(migs, given, sch)
	out := fs[:0]
	for _, f := range fs {
		keep := false
		if schemaRule[f.Code] && f.Table != "" {
			keep = tables[strings.ToLower(f.Table)]
		} else if f.File != "" {
			keep = c.touches(f.File, max(f.Line, 1), f.EndLine)
		}
		if keep {
			out = append(out, f)
		}
	}
	return out
}

// changedTables names the tables, in lower case, of the migration
// statements on changed lines and of the CREATE TABLEs of a --schema file
// that changed: of a dump, a table's lines run from its CREATE TABLE to the
// next one's.
func (c *Changes) changedTables(migs []*lint.Migration, given *givenSchema, sch *schema.Schema) map[string]bool {
	out := map[string]bool{}
	for _, m := range migs {
		for _, st := range m.Statements {
			if st.Node != nil && c.touches(st.File, st.Line, st.EndLine) {
				for _, t := range tablesOf(st.Node) {
					out[t] = true
				}
			}
		}
	}
	if given == nil {
		return out
	}
	byFile := map[string][]*schema.Table{}
	for _, t := range sch.Tables {
		if given.files[t.Created.File] {
			byFile[t.Created.File] = append(byFile[t.Created.File], t)
		}
	}
	for file, ts := range byFile {
		sort.Slice(ts, func(i, j int) bool { return ts[i].Created.Line < ts[j].Created.Line })
		for i, t := range ts {
			end := math.MaxInt
			if i+1 < len(ts) {
				end = ts[i+1].Created.Line - 1
			}
			if c.touches(file, t.Created.Line, end) {
				out[strings.ToLower(t.Name)] = true
			}
		}
	}
	return out
}

// tablesOf names the tables a DDL statement defines or changes, in lower case.
func tablesOf(n sqlparse.StmtNode) []string {
	name := func(t *sqlparse.TableName) string {
		if t == nil {
			return ""
		}
		return t.Name.L
	}
	var out []string
	switch n := n.(type) {
	case *sqlparse.CreateTableStmt:
		out = append(out, name(n.Table))
	case *sqlparse.AlterTableStmt:
		out = append(out, name(n.Table))
		for _, spec := range n.Specs {
			if spec.NewTable != nil {
				out = append(out, name(spec.NewTable))
			}
		}
	case *sqlparse.CreateIndexStmt:
		out = append(out, name(n.Table))
	case *sqlparse.DropIndexStmt:
		out = append(out, name(n.Table))
	case *sqlparse.DropTableStmt:
		for _, t := range n.Tables {
			out = append(out, name(t))
		}
	case *sqlparse.RenameTableStmt:
		for _, tt := range n.TableToTables {
			out = append(out, name(tt.OldTable), name(tt.NewTable))
		}
	case *sqlparse.TruncateTableStmt:
		out = append(out, name(n.Table))
	}
	return out
}
