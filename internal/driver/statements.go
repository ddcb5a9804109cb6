package driver

// The statements of a source file: its fragments cut into pieces, parsed a
// fragment at a time, each piece positioned in the file.

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// parseFile splits every fragment of f into statements and parses them.
// With judge, each batch of statements is handed to it as soon as it is
// parsed (see scriptPart), in the order of the file.
func parseFile(p *sqlparse.Parser, f *hostcode.File, judge func([]*lint.Statement)) []*lint.Statement {
	n := 0 // each fragment in one parser call
	if judge != nil {
		n = scriptPart
	}
	var out []*lint.Statement
	eachStatementPart(p, f, n, func(part []*lint.Statement) {
		out = append(out, part...)
		if judge != nil {
			judge(part)
		}
	})
	return out
}

// scriptPart is how many statements of a long script are parsed in one
// parser call and judged before the next are parsed: the trees of a part
// are still in the processor's cache when the rules walk them, where a
// dump's thousands of trees, parsed all at once, are not.
var scriptPart = 64

// eachStatementPart splits every fragment of f into statements, parses
// them n at a time (a fragment at a time for n <= 0) and hands fn each
// part as soon as it is parsed, in the order of the file: a mapper
// statement is one part, whatever it holds, and so is an unchecked
// fragment's one statement. It is the one way through a script for a
// query source and a migration alike: fn decides what stays of each part
// (a migration keeps its DDL, parseMigration; a query source every
// statement, with its row loads' trees dropped, releaseRowLoads), so a
// script's trees are never all held at once.
func eachStatementPart(p *sqlparse.Parser, f *hostcode.File, n int, fn func([]*lint.Statement)) {
	for _, fr := range f.Fragments {
		if fr.Unchecked == "" {
			eachFragmentPart(p, fr, n, fn)
			continue
		}
		fn([]*lint.Statement{{Fragment: fr, File: fr.File, Line: fr.Line, Column: max(fr.Col, 1), EndLine: max(fr.EndLine, fr.Line)}})
	}
}

// eachFragmentPart is eachStatementPart for the statements of one fragment.
// Each part's statements are one allocation of their own, so that a part
// nothing keeps is freed whole.
func eachFragmentPart(p *sqlparse.Parser, fr *stmt.Fragment, n int, fn func([]*lint.Statement)) {
	pos := stmt.NewPositioner(fr)
	text := fr.SQL
	if fr.Lang == stmt.LangGo || fr.Lang == stmt.LangJava {
		// sqlx and Spring name their parameters (:id), JPA numbers them
		// (?1); the rewrite keeps every offset in place.
		text = sqlparse.NormalizePlaceholders(text)
	}
	pieces := sqlparse.SplitScript(text)
	if fr.Lang == stmt.LangXML || n <= 0 {
		n = len(pieces) // a mapper statement is sent, and fails, as one text
	}
	eachPart(p, text, pieces, n, func(part []sqlparse.Piece, nodes []sqlparse.StmtNode) {
		if fr.Lang == stmt.LangXML && len(part) > 1 && nodes == nil {
			// A mapper statement is sent as one text: a semicolon in SQL
			// that does not parse (inside a broken literal, say) does not
			// start a second statement, and the one error stands for it.
			part = []sqlparse.Piece{{Text: partText(text, part), Offset: part[0].Offset}}
		}
		slab := make([]lint.Statement, len(part))
		out := make([]*lint.Statement, len(part))
		for i, piece := range part {
			var node sqlparse.StmtNode
			if nodes != nil {
				node = nodes[i]
			}
			fillStatement(&slab[i], p, fr, pos, piece, node)
			out[i] = &slab[i]
		}
		fn(out)
	})
}

// keepRowTrees keeps the row loads' trees, for the test that the findings
// do not change without them.
var keepRowTrees bool

// releaseRowLoads drops the trees of the row loads of a .sql source's part
// once the part has been observed, judged by the rules that take one
// statement at a time and its uses recorded: an INSERT or REPLACE of rows
// written out (VALUES or SET, no SELECT, no ON DUPLICATE KEY UPDATE). The
// rules that judge the file as a whole read an UPDATE's or DELETE's tree,
// an ALTER's, a failure's text, and of a row load only its text and place,
// which it keeps (TestWholeFileRulesNeedNoRowTree holds them to it): a
// dump of a million INSERTs then holds a statement per row, as a migration
// holds a count (parseMigration), not a tree of every value. A released
// statement has neither tree nor ParseErr; it changes in place, so a rule
// that keeps a statement past its pass sees it so. A mapper's or host
// code's statements are few, and kept whole.
func releaseRowLoads(part []*lint.Statement) {
	if keepRowTrees {
		return
	}
	for _, st := range part {
		in, ok := st.Node.(*sqlparse.InsertStmt)
		if !ok || st.Fragment.Lang != stmt.LangSQL || in.Select != nil || len(in.OnDuplicate) > 0 {
			continue
		}
		// A fresh statement: the analyses the rules memoized on it go
		// with the tree they were read from.
		*st = lint.Statement{Fragment: st.Fragment, SQL: st.SQL, Offset: st.Offset, File: st.File, Line: st.Line, Column: st.Column, EndLine: st.EndLine}
	}
}

// eachPart parses pieces, cut from text, n at a time in one parser call a
// part (parseBatch), and hands fn each part and its trees: nil when the
// part's call did not work out, and its pieces are to be parsed one by one.
func eachPart(p *sqlparse.Parser, text string, pieces []sqlparse.Piece, n int, fn func(part []sqlparse.Piece, nodes []sqlparse.StmtNode)) {
	for lo := 0; lo < len(pieces); lo += n {
		part := pieces[lo:min(lo+n, len(pieces))]
		fn(part, parseBatch(p, partText(text, part), part))
	}
}

// partText is the text of text from the start of the first piece of part to
// the end of its last.
func partText(text string, part []sqlparse.Piece) string {
	last := part[len(part)-1]
	return text[part[0].Offset : last.Offset+len(last.Text)]
}

// fillStatement fills st with the statement of piece, a piece of fr's SQL,
// with node as its tree, or parsed alone when node is nil.
func fillStatement(st *lint.Statement, p *sqlparse.Parser, fr *stmt.Fragment, pos *stmt.Positioner, piece sqlparse.Piece, node sqlparse.StmtNode) {
	*st = lint.Statement{Fragment: fr, SQL: fr.SQL[piece.Offset : piece.Offset+len(piece.Text)], Offset: piece.Offset, File: fr.File}
	st.Line, st.Column = pos.Pos(piece.Offset)
	st.EndLine, _ = pos.Pos(piece.Offset + len(piece.Text))
	if fr.Lang == stmt.LangXML || fr.Builder != "" {
		// A rendered statement's text comes from several places of the
		// host code (a wrapper chain's calls before its update): it stands
		// at the host call, as its fragment does.
		clampToElement(st, fr)
	}
	if node != nil {
		st.Node = node
	} else if node, err := p.Parse(piece.Text); err == nil {
		st.Node = node
	} else if node := clientListNode(p, fr, piece.Text); node != nil {
		st.Node = node
	} else {
		st.ParseErr = err.(*sqlparse.Error)
	}
}

// clientListNode parses a statement of host code again with each bare `?`
// after IN written as the list the client sends (`id IN ?` with a slice,
// in GORM), where NormalizePlaceholders had no room to; nil when that is
// not it.
func clientListNode(p *sqlparse.Parser, fr *stmt.Fragment, text string) sqlparse.StmtNode {
	if fr.Lang != stmt.LangGo && fr.Lang != stmt.LangJava {
		return nil
	}
	expanded, ok := sqlparse.ExpandInLists(text)
	if !ok {
		return nil
	}
	node, err := p.Parse(expanded)
	if err != nil {
		return nil
	}
	return node
}

// clampToElement keeps a statement's lines within its fragment's: text that
// starts or ends in an included <sql> standing elsewhere in the file, or a
// rendered statement's text from the calls before the host call, would
// otherwise put the statement there, or end it before it starts.
func clampToElement(st *lint.Statement, fr *stmt.Fragment) {
	end := max(fr.EndLine, fr.Line)
	if st.Line < fr.Line || st.Line > end {
		st.Line, st.Column = fr.Line, max(fr.Col, 1)
	}
	if st.EndLine < st.Line || st.EndLine > end {
		st.EndLine = end
	}
}

// parseBatch parses a fragment's statements in one parser call, which costs
// far less than one call per statement, and hands each piece its node. It
// returns nil when that does not work out — a statement that does not parse,
// or pieces the parser cuts differently — and the caller parses piece by
// piece, so that every error stands at its own statement.
func parseBatch(p *sqlparse.Parser, text string, pieces []sqlparse.Piece) []sqlparse.StmtNode {
	if len(pieces) < 2 {
		return nil
	}
	nodes, err := p.ParseAll(text)
	if err != nil || len(nodes) != len(pieces) {
		return nil
	}
	// Each node's text runs from the end of the previous statement through
	// its own delimiter, comments included: it must hold its piece.
	for i, n := range nodes {
		if !strings.Contains(n.Text(), pieces[i].Text) {
			return nil
		}
	}
	return nodes
}

// createTables returns the CREATE TABLE statements of stmts as replay input.
func createTables(stmts []*lint.Statement) []schema.DDL {
	var out []schema.DDL
	for _, st := range stmts {
		if _, ok := st.Node.(*sqlparse.CreateTableStmt); ok {
			out = append(out, schema.DDL{Node: st.Node, SQL: st.SQL, File: st.File, Line: st.Line, Col: st.Column})
		}
	}
	return out
}

// inferenceSchema is the schema the vocabulary inference reads: the run's
// own, or, when it has no table (no migrations and no --schema), the tables
// the run's .sql query sources create — a project's dump under sql/. What a
// column's definition says (a COMMENT listing two values, tinyint(1)) then
// still tells a flag from a state machine; the rules keep the run's schema.
func inferenceSchema(sch *schema.Schema, results []fileResult) *schema.Schema {
	if len(sch.Tables) > 0 {
		return sch
	}
	var ddl []schema.DDL
	for _, r := range results {
		ddl = append(ddl, r.tables...)
	}
	if len(ddl) == 0 {
		return sch
	}
	// A table two dumps create is read from the first. The replay errors
	// are not reported: these files are query sources, not the schema.
	side, _ := schema.FromDDL(ddl)
	return side
}

// toDDL turns parsed migration statements into schema replay input.
func toDDL(stmts []*lint.Statement) []schema.DDL {
	var out []schema.DDL
	for _, st := range stmts {
		if st.Node == nil {
			continue
		}
		out = append(out, schema.DDL{Node: st.Node, SQL: st.SQL, File: st.File, Line: st.Line, Col: st.Column})
	}
	return out
}
