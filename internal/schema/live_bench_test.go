package schema

import (
	"fmt"
	"testing"
)

// syntheticRows returns MariaDB rows for n tables shaped like a shop's.
func syntheticRows(n int) *InfoRows {
	rows := &InfoRows{Version: "10.11.19-MariaDB-0+deb12u1", Database: "shop"}
	str := func(s string) *string { return &s }
	for i := range n {
		name := fmt.Sprintf("t_%04d", i)
		rows.Tables = append(rows.Tables, TableRow{Name: name, Engine: str("InnoDB")})
		rows.Columns = append(rows.Columns,
			ColumnRow{Table: name, Name: "id", Position: 1, ColumnType: "bigint(20) unsigned", DataType: "bigint", IsNullable: "NO", Extra: "auto_increment"},
			ColumnRow{Table: name, Name: "order_no", Position: 2, ColumnType: "varchar(32)", DataType: "varchar", IsNullable: "NO"},
			ColumnRow{Table: name, Name: "quantity", Position: 3, ColumnType: "int(11)", DataType: "int", IsNullable: "NO", Default: str("0")},
			ColumnRow{Table: name, Name: "status", Position: 4, ColumnType: "enum('NEW','PAID')", DataType: "enum", IsNullable: "NO", Default: str("'NEW'")},
			ColumnRow{Table: name, Name: "version", Position: 5, ColumnType: "int(11)", DataType: "int", IsNullable: "NO", Default: str("0")},
			ColumnRow{Table: name, Name: "updated_at", Position: 6, ColumnType: "timestamp", DataType: "timestamp", IsNullable: "NO", Default: str("current_timestamp()"), Extra: "on update current_timestamp()"},
		)
		rows.Statistics = append(rows.Statistics,
			StatisticsRow{Table: name, Index: "PRIMARY", NonUnique: 0, Seq: 1, Column: str("id"), IndexType: "BTREE"},
			StatisticsRow{Table: name, Index: "uk_order_no", NonUnique: 0, Seq: 1, Column: str("order_no"), IndexType: "BTREE"},
		)
		rows.Checks = append(rows.Checks, CheckRow{Table: name, Name: "quantity", Clause: "`quantity` >= 0"})
	}
	return rows
}

// BenchmarkFromRows measures building the model of 2,000 tables, the size
// of the audit benchmark.
func BenchmarkFromRows(b *testing.B) {
	rows := syntheticRows(2000)
	b.ResetTimer()
	for range b.N {
		if _, _, err := FromRows(rows); err != nil {
			b.Fatal(err)
		}
	}
}
