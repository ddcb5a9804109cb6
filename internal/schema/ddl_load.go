package schema

import (
	"os"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// LoadMigrations replays the up files of a golang-migrate folder in version
// order. A statement that does not parse is a ReplayError at its place in the
// file; the error is for a folder or a file that cannot be read, or
// misnamed migrations.
func LoadMigrations(dir string) (*Schema, []*ReplayError, error) {
	files, err := ListMigrations(dir)
	if err != nil {
		return nil, nil, err
	}
	var ups []string
	for _, f := range files {
		if f.Up {
			ups = append(ups, f.Path)
		}
	}
	l, err := replayFiles(ups, false, os.ReadFile)
	if err != nil {
		return nil, nil, err
	}
	return l.Schema, l.Replay, nil
}

// LoadDump replays one schema dump file: mysqldump --no-data output or an
// export of SHOW CREATE TABLE statements. Statements other than DDL (INSERT,
// SET, LOCK TABLES, views, triggers, /*!40101 … */ session lines, the
// DISABLE KEYS / ENABLE KEYS around INSERTs) are skipped without error, even
// when they do not parse.
func LoadDump(path string) (*Schema, []*ReplayError, error) {
	l, err := replayFiles([]string{path}, true, os.ReadFile)
	if err != nil {
		return nil, nil, err
	}
	return l.Schema, l.Replay, nil
}

// statementsOf splits a file into statements with their positions. A
// statement that does not parse is kept with a nil Node, so that FromDDL
// reports the parse error in its turn, unless it is one the parser cannot
// read and replay does not need: a trigger, routine, event or view in a
// migration; anything but table and index DDL in a dump. A dump's
// `ALTER TABLE t DISABLE KEYS` / `ENABLE KEYS` around its INSERTs is left out
// too: it changes nothing replay models, and a data-only dump replayed
// before the one that creates t would report t unknown.
func statementsOf(p *sqlparse.Parser, file, text string, dump bool) []DDL {
	text = strings.TrimPrefix(text, "\ufeff")
	var out []DDL
	pos := sqlparse.NewLineCounter(text)
	for _, piece := range sqlparse.SplitScript(text) {
		line, col := pos.At(piece.Offset)
		d := DDL{SQL: piece.Text, File: file, Line: line, Col: col}
		n, err := p.Parse(piece.Text)
		if err != nil {
			if (dump && !looksLikeDDL(piece.Text)) || (!dump && isProgram(piece.Text)) {
				continue
			}
		} else {
			if dump && togglesKeys(n) {
				continue
			}
			d.Node = n
		}
		out = append(out, d)
	}
	return out
}

// togglesKeys reports whether n is an ALTER TABLE that only disables or
// enables the updating of non-unique indexes (mysqldump's
// `/*!40000 ALTER TABLE t DISABLE KEYS */`).
func togglesKeys(n sqlparse.StmtNode) bool {
	alter, ok := n.(*sqlparse.AlterTableStmt)
	if !ok || len(alter.Specs) == 0 {
		return false
	}
	for _, spec := range alter.Specs {
		if spec == nil || (spec.Tp != sqlparse.AlterTableDisableKeys && spec.Tp != sqlparse.AlterTableEnableKeys) {
			return false
		}
	}
	return true
}

// looksLikeDDL reports whether a statement the parser refused starts like one
// of the statements FromDDL replays, so that its parse error is worth
// reporting. It reads the leading keywords only, looking through comments and
// the version prefix of executable comments.
func looksLikeDDL(sql string) bool {
	words := leadingWords(sql, 6)
	skip := func(i int, optional ...string) int {
		for i < len(words) && containsFold(optional, words[i]) {
			i++
		}
		return i
	}
	if len(words) < 2 {
		return false
	}
	var i int
	var want []string
	switch words[0] {
	case "CREATE":
		i, want = skip(1, "OR", "REPLACE", "TEMPORARY", "UNIQUE", "FULLTEXT", "SPATIAL"), []string{"TABLE", "INDEX"}
	case "ALTER":
		i, want = skip(1, "ONLINE", "OFFLINE", "IGNORE"), []string{"TABLE"}
	case "DROP":
		i, want = skip(1, "TEMPORARY"), []string{"TABLE", "TABLES", "INDEX"}
	case "RENAME":
		i, want = 1, []string{"TABLE", "TABLES"}
	default:
		return false
	}
	return i < len(words) && containsFold(want, words[i])
}

// isProgram reports whether a statement creates, alters or drops a trigger,
// stored routine, event or view: statements the parser may not read and that
// leave the tables as they are.
func isProgram(sql string) bool {
	words := leadingWords(sql, 10)
	if len(words) < 2 || !containsFold([]string{"CREATE", "ALTER", "DROP"}, words[0]) {
		return false
	}
	for _, w := range words[1:] {
		switch w {
		case "TRIGGER", "PROCEDURE", "FUNCTION", "EVENT", "VIEW":
			return true
		case "TABLE", "INDEX", "DATABASE", "SCHEMA":
			return false
		}
	}
	return false
}

// leadingWords returns up to n leading keywords of sql, upper case. Names in
// quotes, '=' and '@' (as in DEFINER=`u`@`%`) are stepped over.
func leadingWords(sql string, n int) []string {
	var words []string
	i := 0
	for i < len(sql) && len(words) < n {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case strings.HasPrefix(sql[i:], "/*!"):
			i += 3
			for i < len(sql) && sql[i] >= '0' && sql[i] <= '9' {
				i++
			}
		case strings.HasPrefix(sql[i:], "/*"):
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				return words
			}
			i += 2 + end + 2
		case strings.HasPrefix(sql[i:], "*/"):
			i += 2
		case c == '=' || c == '@':
			i++
		case c == '`' || c == '\'' || c == '"':
			end := strings.IndexByte(sql[i+1:], c)
			if end < 0 {
				return words
			}
			i += 1 + end + 1
		case c == '#' || strings.HasPrefix(sql[i:], "-- "):
			end := strings.IndexByte(sql[i:], '\n')
			if end < 0 {
				return words
			}
			i += end + 1
		case c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z'):
			start := i
			for i < len(sql) && (sql[i] == '_' || (sql[i]|0x20 >= 'a' && sql[i]|0x20 <= 'z')) {
				i++
			}
			words = append(words, strings.ToUpper(sql[start:i]))
		default:
			return words
		}
	}
	return words
}
