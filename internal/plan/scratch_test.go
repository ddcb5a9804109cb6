package plan

import (
	"fmt"
	"testing"

	"github.com/guard-sql/guard/internal/sqlparse"
)

func TestScratchTypes(t *testing.T) {
	p := sqlparse.NewParser()
	for _, ty := range []string{"INT", "int(11)", "INTEGER UNSIGNED", "bigint(20) unsigned", "tinyint(1)", "BOOL", "DECIMAL", "decimal(10,0)", "DECIMAL(12)", "decimal(12,2) unsigned", "NUMERIC(5,1)", "FLOAT", "float(10,2)", "FLOAT(30)", "DOUBLE", "double(8,3)", "REAL", "CHAR", "char(1)", "VARCHAR(64)", "varchar(64) CHARACTER SET latin1", "BINARY", "BIT", "bit(1)", "YEAR", "year(4)", "DATETIME", "datetime(3)", "TIMESTAMP", "TIME(6)", "DATE", "ENUM('a','b''c')", "enum('NEW','PAID')", "SET('x','y')", "TEXT", "TEXT(100)", "JSON", "longtext", "mediumint(8) unsigned zerofill", "SERIAL", "BIGINT ZEROFILL"} {
		n, err := p.Parse("CREATE TABLE t (c " + ty + ")")
		if err != nil {
			fmt.Printf("%-35s ERR %v\n", ty, err)
			continue
		}
		def := n.(*sqlparse.CreateTableStmt).Cols[0]
		ct := sqlparse.TypeOfColumn(def)
		fmt.Printf("%-35s %+v  String=%q\n", ty, ct, def.Tp.String())
	}
}
