package schema

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestZZSmoke(t *testing.T) {
	sql := `CREATE TABLE t_d (a int CHECK (a >= 0), b int KEY, c serial, d int, e int, f int, FOREIGN KEY (d) REFERENCES p(id), CONSTRAINT fk2 FOREIGN KEY (e) REFERENCES p(id), CONSTRAINT fk3 FOREIGN KEY ix3 (f) REFERENCES p(id), g int, FOREIGN KEY (g) REFERENCES p(id), KEY (g, a), h varchar(100), KEY (h(10)), UNIQUE (h(5)), UNIQUE(h), UNIQUE (e), UNIQUE(b, a), j json, price decimal(10,2) DEFAULT 0, st enum('NEW','PAID') NOT NULL DEFAULT 'NEW', ts timestamp(3) NOT NULL DEFAULT now(3) ON UPDATE now(3), CHECK ((a > 0) AND (b >= 0)), CHECK (f between 0 and 9)) ENGINE=innodb;
ALTER TABLE t_d RENAME COLUMN a TO a2, ADD COLUMN x int NOT NULL DEFAULT '5' AFTER b, DROP COLUMN h;`
	s, errs := FromDDL(splitDDL(t, sql))
	for _, e := range errs {
		fmt.Println(e)
	}
	b, _ := json.MarshalIndent(s, "", " ")
	fmt.Println(string(b))
}
