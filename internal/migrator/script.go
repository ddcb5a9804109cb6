package migrator

import (
	"fmt"
	"os"
	"strings"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// Stmt is one statement of a migration file.
type Stmt struct {
	File      string
	Line, Col int
	SQL       string
	// Node is the parsed statement; nil for a statement the parser does
	// not read but the server does (Program, SET PERSIST).
	Node sqlparse.StmtNode
	// Program is set for a trigger, routine, event or view statement.
	Program *sqlparse.Program
}

// readSteps reads and parses the files of steps, in order. Statements that
// do not parse are returned as FileErrors, the others as Stmts.
func readSteps(steps []Step) ([]Stmt, []FileError, error) {
	p := sqlparse.NewParser()
	var stmts []Stmt
	var errs []FileError
	for _, s := range steps {
		if s.File == "" {
			continue
		}
		b, err := os.ReadFile(s.File)
		if err != nil {
			return nil, nil, fmt.Errorf("read migration: %w", err)
		}
		st, fe := parseScript(p, s.File, string(b))
		stmts = append(stmts, st...)
		errs = append(errs, fe...)
	}
	return stmts, errs, nil
}

// parseScript cuts a migration file into statements as the server will run
// them and parses each. Triggers and other stored programs, which the parser
// does not read, are kept with their header; SET PERSIST likewise.
func parseScript(p *sqlparse.Parser, file, text string) ([]Stmt, []FileError) {
	text = strings.TrimPrefix(text, "\ufeff")
	var stmts []Stmt
	var errs []FileError
	pos := sqlparse.NewLineCounter(text)
	for _, piece := range sqlparse.SplitScript(text) {
		line, col := pos.At(piece.Offset)
		st := Stmt{File: file, Line: line, Col: col, SQL: piece.Text}
		n, err := p.Parse(piece.Text)
		if err == nil {
			st.Node = n
			stmts = append(stmts, st)
			continue
		}
		if prog, ok := sqlparse.ReadProgram(piece.Text); ok {
			st.Program = &prog
			stmts = append(stmts, st)
			continue
		}
		if sqlparse.IsSetPersist(piece.Text) {
			stmts = append(stmts, st)
			continue
		}
		fe := FileError{File: file, Line: line, Column: col, Msg: err.Error()}
		if pe, ok := err.(*sqlparse.Error); ok {
			fe.Line = line + pe.Line - 1
			fe.Column = pe.Column
			if pe.Line == 1 {
				fe.Column = col + pe.Column - 1
			}
			fe.Msg = pe.Msg
		}
		errs = append(errs, fe)
	}
	return stmts, errs
}
