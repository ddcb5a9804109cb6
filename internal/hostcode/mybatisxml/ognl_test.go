package mybatisxml

import "testing"

func TestMbExclusive(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"sort == 0", "sort == 1", true},
		{"sort==0", "sort eq 2", true},
		{"0 == sort", "sort == 1", true},
		{"sort == 1", "sort == 1.0", false},
		{"type == 'AB'", "type == 'CD'", true},
		{"type == 'A'", "type == 'B'", true},
		{`type == "A"`, "type == 'A'", false},
		{"type == 'A'", "type == 65", false}, // 'A' is a character, 65 its code
		{"sort == 0", "sort == ''", false},   // '' compares as 0
		{"sort == '1'", "sort == 1", false},
		{"sort == 'abc'", "sort == 1", true},
		{"x != null", "x == null", true},
		{"x neq null", "x == null", true},
		{"x == null", "x == ''", true},
		{"x != null and x != ''", "x == null", true},
		{"(x != null)", "x == null", true},
		{"flag", "!flag", true},
		{"flag", "not flag", true},
		{"flag == true", "flag == false", true},
		{"flag == true", "flag == 1", false},
		{"x != 1", "x != 2", false},
		{"x == 1", "x != 2", false},
		{"x == 1", "x != 1", true},
		{"a == 0", "b == 1", false},
		{"a.b == 0", "a.c == 1", false},
		{"x == 1 or y == 1", "x == 2", false},
		{"db == 'mysql' || db == 'mariadb'", "db == 'oracle' || db == 'dm'", true},
		{"db == 'mysql' or db == 'mariadb'", "db == 'oracle'", true},
		{"db == 'mysql' || db == 'oracle'", "db == 'oracle' || db == 'dm'", false},
		{"db == 'mysql' || db != 'oracle'", "db == 'oracle'", false},
		{"(db == 'mysql') || (db == 'sqlite')", "db == 'pg'", true},
		{"(x == 1 or y == 1) and z == 1", "z == 2", true},
		{"list.size() == 0", "list.size() == 1", false},
		{"list[0] == 0", "list[0] == 1", false},
		{"x == 10L", "x == 11L", false},
		{"x > 0", "x < 0", false},
		{"x == 'it''s'", "x == 'a'", false},
		{"x == 'unclosed", "x == 'a'", false},
		{"", "x == 1", false},
	}
	for _, tt := range tests {
		got := mbExclusive(mbConds(tt.a), mbConds(tt.b))
		if got != tt.want {
			t.Errorf("mbExclusive(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if back := mbExclusive(mbConds(tt.b), mbConds(tt.a)); back != got {
			t.Errorf("mbExclusive(%q, %q) = %v, not symmetric", tt.b, tt.a, back)
		}
	}
}
