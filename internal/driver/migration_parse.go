package driver

import (
	"fmt"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/hostcode/sqlfile"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// migrationChunk is how many statements of a migration one parser call
// reads: enough to cost about what one call for the whole file does, few
// enough that the trees of a file of a million INSERTs are never all held.
const migrationChunk = 256

// parseMigration splits and parses a migration file as parseFile does, a
// chunk of statements at a time, and keeps no data statement (INSERT,
// UPDATE, DELETE, SELECT …) that parses: the schema replay and the migration
// rules read DDL only, and a migration loading data would otherwise hold a
// statement, or its tree, per row until the rules have run. data counts the
// statements left out. A statement that does not parse is kept, with its
// ParseErr.
func parseMigration(p *sqlparse.Parser, f *hostcode.File) (out []*lint.Statement, data int) {
	eachStatementPart(p, f, migrationChunk, func(chunk []*lint.Statement) {
		for _, st := range chunk {
			if _, dml := st.Node.(sqlparse.DMLNode); dml {
				data++
				continue
			}
			kept := *st // apart from the chunk, which goes with its data's trees
			out = append(out, &kept)
		}
	})
	return out, data
}

// readMigrations reads and parses the up migrations of dirs, in version
// order within each folder, the files on a pool of workers, and records
// their suppressions and anchors in col.
func readMigrations(dirs []string, col *collector, tx *texts) ([]*lint.Migration, error) {
	var files []schema.MigrationFile
	for _, dir := range dirs {
		fs, err := schema.ListMigrations(dir)
		if err != nil {
			return nil, &InputError{Msg: err.Error()}
		}
		for _, mf := range fs {
			if mf.Up {
				files = append(files, mf)
			}
		}
	}
	type read struct {
		f     *hostcode.File
		stmts []*lint.Statement
		data  int
		err   error
	}
	reads := make([]read, len(files))
	parallel(len(files), func(p *sqlparse.Parser, i int) {
		src, err := tx.take(files[i].Path)
		if err != nil {
			reads[i].err = &InputError{Msg: fmt.Sprintf("read %s: %v", files[i].Path, err)}
			return
		}
		reads[i].f = sqlfile.ExtractSQL(lint.DisplayPath(files[i].Path), src)
		reads[i].stmts, reads[i].data = parseMigration(p, reads[i].f)
	})
	migs := make([]*lint.Migration, 0, len(files))
	for i, r := range reads {
		if r.err != nil {
			return nil, r.err
		}
		col.addFile(r.f, anchorsOf(r.f, r.stmts))
		migs = append(migs, &lint.Migration{File: r.f.Path, Version: files[i].Version, Statements: r.stmts, Data: r.data})
	}
	return migs, nil
}
