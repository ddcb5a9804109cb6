package schema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFromDDLReplayErrors(t *testing.T) {
	tests := []struct {
		name string
		sql  string
		want []*ReplayError
	}{
		{
			name: "alter unknown table",
			sql:  "CREATE TABLE t (id INT);\n  ALTER TABLE nope ADD COLUMN x INT;",
			want: []*ReplayError{{File: "m.sql", Line: 2, Col: 3, Msg: "alter table nope: unknown table"}},
		},
		{
			name: "index statements on unknown table",
			sql:  "CREATE INDEX ix ON nope (a);\nDROP INDEX ix ON nope;",
			want: []*ReplayError{
				{File: "m.sql", Line: 1, Col: 1, Msg: "create index ix on nope: unknown table"},
				{File: "m.sql", Line: 2, Col: 1, Msg: "drop index ix on nope: unknown table"},
			},
		},
		{
			name: "duplicate create table",
			sql:  "CREATE TABLE t (id INT);\nCREATE TABLE t (id INT);",
			want: []*ReplayError{{File: "m.sql", Line: 2, Col: 1, Msg: "create table t: table already exists"}},
		},
		{
			name: "drop unknown column and index",
			sql:  "CREATE TABLE t (id INT, a INT);\nALTER TABLE t DROP COLUMN nope;\nALTER TABLE t DROP INDEX nope;\nALTER TABLE t DROP PRIMARY KEY;",
			want: []*ReplayError{
				{File: "m.sql", Line: 2, Col: 1, Msg: "drop column nope from t: unknown column"},
				{File: "m.sql", Line: 3, Col: 1, Msg: "drop index nope on t: unknown index"},
				{File: "m.sql", Line: 4, Col: 1, Msg: "drop primary key on t: table has no primary key"},
			},
		},
		{
			name: "add duplicate column",
			sql:  "CREATE TABLE t (id INT);\nALTER TABLE t ADD COLUMN ID BIGINT;\nCREATE TABLE u (a INT, a INT);",
			want: []*ReplayError{
				{File: "m.sql", Line: 2, Col: 1, Msg: "add column ID to t: duplicate column"},
				{File: "m.sql", Line: 3, Col: 1, Msg: "create table u: duplicate column a"},
			},
		},
		{
			name: "keys and checks on unknown columns, duplicate names",
			sql: "CREATE TABLE t (id INT PRIMARY KEY, a INT, KEY ka (a));\nALTER TABLE t ADD KEY (nope);\nALTER TABLE t ADD CHECK (nope > 0);\n" +
				"ALTER TABLE t ADD KEY ka (id);\nALTER TABLE t ADD PRIMARY KEY (a);\nALTER TABLE t ADD CONSTRAINT c1 CHECK (a > 0), ADD CONSTRAINT c1 CHECK (a < 9);",
			want: []*ReplayError{
				{File: "m.sql", Line: 2, Col: 1, Msg: "add index on t: unknown column nope"},
				{File: "m.sql", Line: 3, Col: 1, Msg: "add check on t: unknown column nope"},
				{File: "m.sql", Line: 4, Col: 1, Msg: "add index on t: duplicate index name ka"},
				{File: "m.sql", Line: 5, Col: 1, Msg: "add primary key on t: multiple primary keys defined"},
				{File: "m.sql", Line: 6, Col: 1, Msg: "add check on t: duplicate check constraint name c1"},
			},
		},
		{
			name: "other refusals",
			sql: "CREATE TABLE t (a INT, b INT, CHECK (a > b));\nALTER TABLE t DROP COLUMN a;\nALTER TABLE t MODIFY nope INT;\n" +
				"ALTER TABLE t RENAME INDEX x TO y;\nALTER TABLE t DROP FOREIGN KEY fk;\nALTER TABLE t DROP CHECK nope;\n" +
				"ALTER TABLE t ADD COLUMN c INT AFTER nope;\nRENAME TABLE nope TO t2;\nDROP TABLE nope;\nCREATE TABLE u LIKE nope;\n" +
				"CREATE TABLE v (x INT);\nALTER TABLE v DROP COLUMN x;",
			want: []*ReplayError{
				{File: "m.sql", Line: 2, Col: 1, Msg: "drop column a from t: check constraint CONSTRAINT_1 also uses column b"},
				{File: "m.sql", Line: 3, Col: 1, Msg: "change column nope in t: unknown column"},
				{File: "m.sql", Line: 4, Col: 1, Msg: "rename index x on t: unknown index"},
				{File: "m.sql", Line: 5, Col: 1, Msg: "drop foreign key fk on t: unknown foreign key"},
				{File: "m.sql", Line: 6, Col: 1, Msg: "drop constraint nope on t: unknown constraint"},
				{File: "m.sql", Line: 7, Col: 1, Msg: "alter table t: unknown column nope in AFTER"},
				{File: "m.sql", Line: 8, Col: 1, Msg: "rename table nope: unknown table"},
				{File: "m.sql", Line: 9, Col: 1, Msg: "drop table nope: unknown table"},
				{File: "m.sql", Line: 10, Col: 1, Msg: "create table u like nope: unknown table"},
				{File: "m.sql", Line: 12, Col: 1, Msg: "drop column x from v: cannot drop the only column, drop the table instead"},
			},
		},
		{
			name: "parse error at its place in the file",
			sql:  "CREATE TABLE t (id INT);\n\nALTER TABLE t\n  ADD COLUMN qty INT NOT NUL;\nALTER TABLE t ADD COLUMN ok INT;",
			want: []*ReplayError{{File: "m.sql", Line: 4, Col: 26, Msg: `cannot parse statement: syntax error near "NUL"`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := replayDDL(t, tt.sql)
			if diff := cmp.Diff(tt.want, errs); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFromDDLRefusedStatementChangesNothing(t *testing.T) {
	const create = "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, CHECK (a > b));\n"
	tests := []struct {
		name string
		sql  string
	}{
		{"alter fails on a later spec", "ALTER TABLE t ADD COLUMN c INT, ADD KEY (c), DROP COLUMN nope"},
		{"alter fails on an earlier spec", "ALTER TABLE t DROP COLUMN a, DROP PRIMARY KEY, ADD PRIMARY KEY (b)"},
		{"rename to a taken name", "CREATE TABLE u (x INT); ALTER TABLE t ADD COLUMN c INT, RENAME TO u"},
		{"rename table fails on a later pair", "RENAME TABLE t TO t2, nope TO t3"},
	}
	want := replayDDLTable(t, create, "t")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, errs := replayDDL(t, create+tt.sql)
			if len(errs) != 1 {
				t.Fatalf("want one error, got %v", errs)
			}
			got := s.Table("t")
			if got == nil {
				t.Fatal("table t is gone")
			}
			got.Created = Pos{}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("table changed (-want +got):\n%s", diff)
			}
			if s.Table("t2") != nil || s.Table("t3") != nil {
				t.Error("a refused rename left a table behind")
			}
		})
	}
	s, errs := replayDDL(t, "CREATE TABLE bad (id INT, KEY (nope)); ALTER TABLE bad ADD COLUMN x INT;")
	if s.Table("bad") != nil || len(errs) != 2 {
		t.Errorf("a refused CREATE TABLE must leave no table and the ALTER must fail: table=%v errs=%v", s.Table("bad"), errs)
	}
}

func TestFromDDLSkipsUnparsablePrograms(t *testing.T) {
	s, errs := replayDDL(t, `CREATE TABLE t (id INT);
DELIMITER ;;
CREATE DEFINER=`+"`root`@`%`"+` TRIGGER trg BEFORE INSERT ON t FOR EACH ROW BEGIN
  IF NEW.id < 0 THEN SIGNAL SQLSTATE '45000'; END IF;
END;;
CREATE PROCEDURE p() BEGIN SELECT 1; END;;
DELIMITER ;
ALTER TABLE t ADD COLUMN qty INT;`)
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	if s.Table("t").Column("qty") == nil {
		t.Error("the ALTER after the trigger was not replayed")
	}
}

func TestReplayErrorError(t *testing.T) {
	tests := []struct {
		err  *ReplayError
		want string
	}{
		{&ReplayError{File: "db/1_a.up.sql", Line: 3, Col: 7, Msg: "alter table t: unknown table"}, "db/1_a.up.sql:3:7: alter table t: unknown table"},
		{&ReplayError{Line: 1, Col: 1, Msg: "x"}, "1:1: x"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}
