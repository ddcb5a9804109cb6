package rules

import (
	"testing"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules/migrationrules"
	"github.com/guard-sql/guard/lint/rules/schemarules"
)

// FuzzSchemaAndMigrationRules replays arbitrary migration text into a schema
// and runs the GS and GM rules over it: whatever parses, no rule may panic or
// fail, and every finding names the rule's code.
func FuzzSchemaAndMigrationRules(f *testing.F) {
	for _, s := range []string{
		"CREATE TABLE t (id INT PRIMARY KEY, stock INT NULL, version VARCHAR(3), CHECK (stock >= 0) NOT ENFORCED) ENGINE=MyISAM;",
		"CREATE TABLE t (a INT, pay_no VARCHAR(9), UNIQUE KEY (pay_no, a));\nALTER TABLE t ADD CHECK (a > -1), ALGORITHM=COPY;",
		"CREATE TABLE t (q INT);\nALTER TABLE t MODIFY q BIGINT, CHANGE q r INT, RENAME TO u, ENGINE=InnoDB;\nRENAME TABLE u TO v;\nDROP TABLE v;",
		"ALTER TABLE x CONVERT TO CHARACTER SET utf8mb4, DROP PRIMARY KEY, ADD PRIMARY KEY (a), FORCE;",
		"CREATE INDEX i ON t (a) ALGORITHM=INPLACE LOCK=NONE; DROP INDEX i ON t;",
		"CREATE TABLE a LIKE b; ALTER TABLE a ALTER CHECK c ENFORCED; TRUNCATE a;",
		"ALTER TABLE t ADD COLUMN c INT CHECK (c >= 0), ALGORITHM=INSTANT;",
		"SET NAMES utf8; INSERT INTO t VALUES (1);",
		"CREATE TABLE t (",
	} {
		f.Add(s)
	}
	rules := []*lint.Rule{migrationrules.MultipleDDL, migrationrules.AlterWithoutAlgorithm, migrationrules.BlockingDDL, schemarules.StrictSQLMode, schemarules.CheckUnenforced,
		schemarules.CounterWithoutCheck, schemarules.NullableCounter, schemarules.BusinessKeyNotUnique, schemarules.MissingVersionColumn, schemarules.BadVersionColumn,
		schemarules.NonTransactionalEngine, schemarules.NoPrimaryKey}
	pol := policy.Default()
	live := &lint.Live{Target: "h:1/db", GlobalMode: "ANSI", SessionMode: "", EnforceCheck: false}
	f.Fuzz(func(t *testing.T, text string) {
		p := sqlparse.NewParser()
		m := &lint.Migration{File: "m/000001_x.up.sql", Version: 1}
		var ddl []schema.DDL
		for _, piece := range sqlparse.Split(text) {
			st := &lint.Statement{SQL: piece.Text, File: m.File, Line: 1, Column: 1, EndLine: 1}
			if node, err := p.Parse(piece.Text); err == nil {
				st.Node = node
				ddl = append(ddl, schema.DDL{Node: node, SQL: piece.Text, File: m.File, Line: 1, Col: 1})
			}
			m.Statements = append(m.Statements, st)
		}
		s, _ := schema.FromDDL(ddl)
		for _, r := range rules {
			for _, l := range []*lint.Live{nil, live} {
				pass := lint.NewPass(r, pol, s, nil, []*lint.Migration{m}, l, func(f lint.Finding) {
					if f.Code != r.Code || f.Message == "" {
						t.Fatalf("%s reported %+v", r.Code, f)
					}
				})
				if err := r.Run(pass); err != nil {
					t.Fatalf("%s: %v", r.Code, err)
				}
			}
		}
	})
}
