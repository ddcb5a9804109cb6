package sqlparse

import "slices"

// A string built at run time cannot be parsed, yet the code that builds it
// may not show where it goes (a helper of another file runs it, or it is
// returned). Its first word alone does not make it SQL: "update stock
// failed: %v" starts like an UPDATE. LooksLikeStatement asks for more of a
// statement's skeleton before such a text counts as SQL.

// LooksLikeStatement reports whether text, the constant parts of a
// statement whose other parts are pasted in at run time (joined with blanks,
// or a format string with its verbs), has the skeleton of the statement its
// first word opens: the clause that verb requires (UPDATE … SET, DELETE …
// FROM, INSERT … INTO or VALUES, SELECT … FROM) and a mark that prose seldom
// has (a comparison =, a *, a backquoted name, an aggregate's call, a
// derived table FROM (, or WHERE, VALUES, LIMIT, JOIN, HAVING, UNION,
// DISTINCT, ORDER BY, GROUP BY, ON DUPLICATE KEY); for DDL, the object it
// acts on and, for CREATE and ALTER, what it does to it.
func LooksLikeStatement(text string) bool {
	toks := scriptTokens(text)
	if len(toks) < 2 {
		return false
	}
	rest := toks[1:]
	switch toks[0].upper() {
	case "SELECT", "DELETE":
		return hasWord(rest, "FROM") && hasMark(rest)
	case "UPDATE":
		return hasWord(rest, "SET") && hasMark(rest)
	case "INSERT", "REPLACE":
		return (hasWord(rest, "INTO") || hasWord(rest, "VALUES") || hasWord(rest, "VALUE")) && hasMark(rest)
	case "WITH":
		return withShape(rest)
	case "CREATE":
		obj := objectAfter(rest, "OR", "REPLACE", "TEMPORARY", "UNIQUE", "FULLTEXT", "SPATIAL", "ALGORITHM", "=", "UNDEFINED", "MERGE", "TEMPTABLE")
		return ddlObjects[obj] && (hasText(rest, "(") || hasWord(rest, "LIKE") || hasWord(rest, "SELECT"))
	case "ALTER":
		obj := objectAfter(rest, "IGNORE", "ONLINE")
		return ddlObjects[obj] && hasAnyWord(rest, alterActions)
	case "DROP":
		return ddlObjects[objectAfter(rest, "TEMPORARY")]
	case "TRUNCATE":
		return rest[0].upper() == "TABLE"
	}
	return false
}

// ddlObjects are the objects CREATE, ALTER and DROP act on.
var ddlObjects = map[string]bool{
	"TABLE": true, "INDEX": true, "VIEW": true, "DATABASE": true, "SCHEMA": true, "TRIGGER": true,
	"PROCEDURE": true, "FUNCTION": true, "EVENT": true, "SEQUENCE": true,
}

// alterActions are the words that say what an ALTER does.
var alterActions = []string{
	"ADD", "DROP", "MODIFY", "CHANGE", "RENAME", "ALTER", "ENGINE", "CONVERT", "AUTO_INCREMENT",
	"CHARACTER", "CHARSET", "COLLATE", "COMMENT", "PARTITION", "FORCE", "ORDER",
}

// markWords are the clauses a statement has and a sentence seldom does.
var markWords = map[string]bool{
	"WHERE": true, "VALUES": true, "VALUE": true, "LIMIT": true, "JOIN": true, "HAVING": true, "UNION": true,
	"DISTINCT": true,
}

// aggregates are the functions a query calls that a sentence does not.
var aggregates = map[string]bool{"COUNT": true, "SUM": true, "MIN": true, "MAX": true, "AVG": true}

// hasMark reports whether toks hold something prose seldom has: see
// LooksLikeStatement.
func hasMark(toks []token) bool {
	for i, t := range toks {
		switch {
		case t.quoted, !t.word && (t.text == "=" || t.text == "*"):
			return true
		case markWords[t.upper()]:
			return true
		case i+1 < len(toks) && (t.upper() == "ORDER" || t.upper() == "GROUP") && toks[i+1].upper() == "BY":
			return true
		case i+2 < len(toks) && t.upper() == "ON" && toks[i+1].upper() == "DUPLICATE" && toks[i+2].upper() == "KEY":
			return true
		case i+1 < len(toks) && !toks[i+1].word && toks[i+1].text == "(" && (aggregates[t.upper()] || t.upper() == "FROM"):
			return true // count(1), FROM (subquery)
		}
	}
	return false
}

// withShape reports whether the tokens after WITH name a common table
// expression, name AS ( …, followed by the statement that reads it.
func withShape(toks []token) bool {
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].upper() == "AS" && !toks[i+1].word && toks[i+1].text == "(" {
			return hasAnyWord(toks[i+2:], []string{"SELECT", "UPDATE", "DELETE", "INSERT"})
		}
	}
	return false
}

// objectAfter returns the first word of toks past the given modifiers (an
// "=" among them stands for itself), in upper case.
func objectAfter(toks []token, skip ...string) string {
	for _, t := range toks {
		w := t.upper()
		if !t.word && t.text == "=" {
			w = "="
		}
		if w == "" || !slices.Contains(skip, w) {
			return w
		}
	}
	return ""
}

func hasWord(toks []token, w string) bool {
	for _, t := range toks {
		if t.upper() == w {
			return true
		}
	}
	return false
}

func hasAnyWord(toks []token, ws []string) bool {
	for _, t := range toks {
		if w := t.upper(); w != "" && slices.Contains(ws, w) {
			return true
		}
	}
	return false
}

func hasText(toks []token, s string) bool {
	for _, t := range toks {
		if !t.word && !t.quoted && t.text == s {
			return true
		}
	}
	return false
}

// HoldsStatement reports whether text, a string of host code whose use is not
// known, is SQL: one of its statements parses (named and numbered parameters
// read as ?) and is one guard has something to say about, a query, a write or
// DDL on tables, indexes, views or databases. A SELECT of bare names without
// FROM does not count: "select user failed" parses as one, and it could not
// run.
func (p *Parser) HoldsStatement(text string) bool {
	text = NormalizePlaceholders(text)
	for _, piece := range SplitScript(text) {
		node, err := p.Parse(piece.Text)
		if err == nil && meaningful(node) {
			return true
		}
	}
	return false
}

// meaningful reports whether a parsed statement is of a kind code runs
// against its data or schema.
func meaningful(n StmtNode) bool {
	switch n := n.(type) {
	case *SelectStmt:
		return n.From != nil || !selectsBareNames(n)
	case *SetOprStmt, *InsertStmt, *UpdateStmt, *DeleteStmt,
		*CreateTableStmt, *AlterTableStmt, *DropTableStmt, *TruncateTableStmt, *RenameTableStmt,
		*CreateIndexStmt, *DropIndexStmt, *CreateViewStmt,
		*CreateDatabaseStmt, *AlterDatabaseStmt, *DropDatabaseStmt:
		return true
	}
	return false
}

// selectsBareNames reports whether a SELECT lists a column name among its
// fields, which without FROM it has no table to take from.
func selectsBareNames(s *SelectStmt) bool {
	if s.Fields == nil {
		return false
	}
	for _, f := range s.Fields.Fields {
		if _, ok := f.Expr.(*ColumnNameExpr); ok {
			return true
		}
	}
	return false
}

// FirstWord returns the first word of text in upper case, looking through
// comments and, as every token reader here, string literals; "" when text
// opens with another token (a quoted name, a parenthesis) or holds none.
func FirstWord(text string) string {
	var buf [1]token
	toks := leadTokens(buf[:0], text, len(buf))
	if len(toks) == 0 {
		return ""
	}
	return toks[0].upper()
}

// CreatesTable reports whether text opens a CREATE TABLE statement, with or
// without modifiers between the two words (CREATE TEMPORARY TABLE, CREATE
// CACHED TABLE, CREATE OR REPLACE TABLE): a classification of a statement
// that may not parse, read from its first words only.
func CreatesTable(text string) bool {
	var buf [5]token
	toks := leadTokens(buf[:0], text, len(buf))
	if len(toks) < 2 || toks[0].upper() != "CREATE" {
		return false
	}
	for _, t := range toks[1:min(len(toks), 5)] {
		switch w := t.upper(); w {
		case "TABLE":
			return true
		case "":
			return false
		}
	}
	return false
}
