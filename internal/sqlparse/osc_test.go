package sqlparse

import "testing"

func TestOnlineAlter(t *testing.T) {
	p := NewParser()
	for _, tc := range []struct {
		sql, schema, table, alter string
		ok                        bool
	}{
		{"ALTER TABLE t_Stock ADD CONSTRAINT chk_q CHECK (qty >= 0), ALGORITHM=COPY, LOCK=SHARED", "", "t_Stock", "ADD CONSTRAINT chk_q CHECK (qty >= 0), ALGORITHM=COPY, LOCK=SHARED", true},
		{"alter table `shop`.`t` /* c */ MODIFY COLUMN q BIGINT NOT NULL DEFAULT 0;", "shop", "t", "/* c */ MODIFY COLUMN q BIGINT NOT NULL DEFAULT 0", true},
		{"ALTER TABLE t RENAME TO u", "", "", "", false},
		{"CREATE TABLE t (id INT)", "", "", "", false},
	} {
		n, err := p.Parse(tc.sql)
		if err != nil {
			t.Fatal(err)
		}
		s, tb, a, ok := OnlineAlter(tc.sql, n)
		if s != tc.schema || tb != tc.table || a != tc.alter || ok != tc.ok {
			t.Errorf("%s: got %q %q %q %v, want %q %q %q %v", tc.sql, s, tb, a, ok, tc.schema, tc.table, tc.alter, tc.ok)
		}
	}
}
