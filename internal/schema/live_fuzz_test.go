package schema

import "testing"

// FuzzFromRows feeds FromRows server text it must read without panicking:
// versions, column types, defaults, EXTRA, CHECK clauses and key-part
// expressions of either flavor.
func FuzzFromRows(f *testing.F) {
	seeds := []struct {
		version, columnType, dataType, def, extra, clause, expr string
		nullable, hasDefault                                    bool
	}{
		{versionMariaDB, "int(11)", "int", "0", "", "`c` >= 0", "", false, true},
		{versionMariaDB, "enum('NEW','PAID')", "enum", "'NEW'", "", "`c` in ('NEW','PAID')", "", false, true},
		{versionMariaDB, "timestamp", "timestamp", "current_timestamp()", "on update current_timestamp()", "json_valid(`c`)", "", false, true},
		{versionMariaDB, "decimal(10,2)", "decimal", "1.50", "", "`c` between 0 and 5", "", true, true},
		{versionMySQL, "bigint unsigned", "bigint", "", "auto_increment", "(`c` > 0)", "", false, false},
		{versionMySQL, "varchar(20)", "varchar", `_utf8mb4\'it\\\'s\'`, "DEFAULT_GENERATED", "(`c` <> _utf8mb4\\'\\')", "lower(`c`)", true, true},
		{versionMySQL, "bit(3)", "bit", "b'101'", "", "(`c` = 1)", "(`c` * 2)", false, true},
		{versionMySQL, "varbinary(8)", "varbinary", "0x6162", "", "((`c` >= 0) and (`c` < 9))", "", true, true},
		{"8.0.12", "datetime(3)", "datetime", "CURRENT_TIMESTAMP(3)", "", "", "", false, true},
		{"", "", "", "", "", "", "", false, false},
	}
	for _, s := range seeds {
		f.Add(s.version, s.columnType, s.dataType, s.def, s.extra, s.clause, s.expr, s.nullable, s.hasDefault)
	}
	f.Fuzz(func(t *testing.T, version, columnType, dataType, def, extra, clause, expr string, nullable, hasDefault bool) {
		isNullable := "NO"
		if nullable {
			isNullable = "YES"
		}
		col := ColumnRow{Table: "t", Name: "c", Position: 1, ColumnType: columnType, DataType: dataType, IsNullable: isNullable, Extra: extra}
		if hasDefault {
			col.Default = &def
		}
		part := StatisticsRow{Table: "t", Index: "ix", NonUnique: 1, Seq: 1, Column: &col.Name}
		if expr != "" {
			part.Column, part.Expression = nil, &expr
		}
		// t2's checks come from its SHOW CREATE TABLE, as for an account
		// CHECK_CONSTRAINTS hid them from; the clause stands in its text.
		rows := &InfoRows{
			Version:     version,
			Tables:      []TableRow{{Name: "t"}, {Name: "t2"}},
			Columns:     []ColumnRow{col},
			Statistics:  []StatisticsRow{part},
			Checks:      []CheckRow{{Table: "t", Name: "chk", Clause: clause, Enforced: &extra}},
			Definitions: []DefinitionRow{{Table: "t2", CreateTable: "CREATE TABLE `t2` (`c` " + columnType + ", CONSTRAINT `chk` CHECK (" + clause + "))"}},
		}
		s, _, err := FromRows(rows)
		if err != nil {
			t.Fatalf("FromRows: %v", err)
		}
		c := s.Table("t").Column("c")
		if c.Nullable && c.Default == nil {
			t.Errorf("NULLable column without a default")
		}
		if !c.Nullable && c.Default != nil && *c.Default == "NULL" {
			t.Errorf("NOT NULL column with the default NULL")
		}
		if ix := s.Table("t").Index("ix"); ix == nil || len(ix.Columns) != 1 {
			t.Errorf("index ix: %+v", ix)
		}
		if t2 := s.Table("t2"); t2 == nil || len(t2.Checks) > 1 || t2.ColumnsPartial {
			t.Errorf("t2 read from its definition: %+v", t2)
		}
	})
}
