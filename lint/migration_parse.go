package lint

import (
	"github.com/guard-sql/guard/internal/source"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// migrationChunk is how many statements of a migration one parser call
// reads: enough to cost about what one call for the whole file does, few
// enough that the trees of a file of a million INSERTs are never all held.
const migrationChunk = 256

// parseMigration splits and parses a migration file as parseFile does, a
// chunk of statements at a time, and keeps no tree of a data statement
// (INSERT, UPDATE, DELETE, SELECT …): the schema replay and the migration
// rules read DDL only, and a migration loading data would otherwise hold
// every row's tree until the rules have run. A statement that does not parse
// keeps its ParseErr.
func parseMigration(p *sqlparse.Parser, f *source.File) []*Statement {
	var out []*Statement
	for _, fr := range f.Fragments {
		if fr.Unchecked != "" || fr.Lang != source.LangSQL {
			out = append(out, parseFile(p, &source.File{Path: f.Path, Lang: f.Lang, Fragments: []*source.Fragment{fr}})...)
			continue
		}
		pos := source.NewPositioner(fr)
		pieces := sqlparse.SplitScript(fr.SQL)
		for a := 0; a < len(pieces); a += migrationChunk {
			chunk := pieces[a:min(a+migrationChunk, len(pieces))]
			last := chunk[len(chunk)-1]
			nodes := parseBatch(p, fr.SQL[chunk[0].Offset:last.Offset+len(last.Text)], chunk)
			for i, piece := range chunk {
				var node sqlparse.StmtNode
				if nodes != nil {
					node = nodes[i]
				}
				st := pieceStatement(p, fr, pos, piece, node)
				if _, data := st.Node.(sqlparse.DMLNode); data {
					st.Node = nil
				}
				out = append(out, st)
			}
		}
	}
	return out
}
