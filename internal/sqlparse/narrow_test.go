package sqlparse

import (
	"strings"
	"testing"
)

func TestNarrowing(t *testing.T) {
	ty := func(name string, length, scale int, unsigned bool, elems ...string) ColumnType {
		return ColumnType{Name: name, Length: length, Scale: scale, Unsigned: unsigned, Elems: elems}
	}
	cases := []struct {
		name     string
		from, to ColumnType
		narrows  bool
	}{
		{"same", ty("varchar", 64, -1, false), ty("varchar", 64, -1, false), false},
		{"shorter varchar", ty("varchar", 64, -1, false), ty("varchar", 32, -1, false), true},
		{"longer varchar", ty("varchar", 32, -1, false), ty("varchar", 64, -1, false), false},
		{"varchar to text", ty("varchar", 255, -1, false), ty("text", -1, -1, false), false},
		{"mediumtext to text", ty("mediumtext", -1, -1, false), ty("text", -1, -1, false), true},
		{"text to mediumblob", ty("mediumtext", -1, -1, false), ty("mediumblob", -1, -1, false), false},
		{"blob to text", ty("blob", -1, -1, false), ty("text", -1, -1, false), true},
		{"int to bigint", ty("int", 11, -1, false), ty("bigint", 20, -1, false), false},
		{"bigint to int", ty("bigint", -1, -1, false), ty("int", -1, -1, false), true},
		{"display width only", ty("int", 11, -1, false), ty("int", 10, -1, false), false},
		{"signed to unsigned", ty("int", -1, -1, false), ty("int", -1, -1, true), true},
		{"unsigned to wider signed", ty("int", -1, -1, true), ty("bigint", -1, -1, false), false},
		{"unsigned to same signed", ty("int", -1, -1, true), ty("int", -1, -1, false), true},
		{"decimal fewer digits", ty("decimal", 12, 2, false), ty("decimal", 10, 2, false), true},
		{"decimal fewer decimals", ty("decimal", 12, 4, false), ty("decimal", 12, 2, false), true},
		{"decimal wider", ty("decimal", 10, 2, false), ty("decimal", 12, 2, false), false},
		{"decimal default", ty("decimal", -1, -1, false), ty("decimal", 10, 0, false), false},
		{"enum value removed", ty("enum", -1, -1, false, "a", "b"), ty("enum", -1, -1, false, "a"), true},
		{"enum value added", ty("enum", -1, -1, false, "a"), ty("enum", -1, -1, false, "a", "b"), false},
		{"int to varchar wide", ty("int", -1, -1, false), ty("varchar", 32, -1, false), false},
		{"bigint to varchar narrow", ty("bigint", -1, -1, false), ty("varchar", 10, -1, false), true},
		{"varchar to int", ty("varchar", 32, -1, false), ty("int", -1, -1, false), true},
		{"varchar to json", ty("varchar", 255, -1, false), ty("json", -1, -1, false), true},
		{"datetime fewer fractions", ty("datetime", -1, 6, false), ty("datetime", -1, 0, false), true},
		{"double to float", ty("double", -1, -1, false), ty("float", -1, -1, false), true},
	}
	for _, c := range cases {
		got := Narrowing(c.from, c.to)
		if (got != "") != c.narrows {
			t.Errorf("%s: Narrowing(%s, %s) = %q, want narrowing %v", c.name, c.from.Text(), c.to.Text(), got, c.narrows)
		}
	}
}

func TestBreaches(t *testing.T) {
	p := NewParser()
	ty := func(s string) ColumnType {
		ct, ok := p.ColumnType(s)
		if !ok {
			t.Fatalf("ColumnType(%q) does not parse", s)
		}
		return ct
	}
	for _, c := range []struct {
		from, to string
		where    []string // of the breaches, in order; "~" marks Rounds, "?" Charset
	}{
		{"varchar(20)", "varchar(5)", []string{"CHAR_LENGTH(`c`) > 5"}},
		{"text", "varchar(100)", []string{"CHAR_LENGTH(`c`) > 100"}},
		{"varchar(100)", "tinytext", []string{"? LENGTH(`c`) > 255"}},
		{"varchar(300)", "tinytext", []string{"LENGTH(`c`) > 255"}},
		{"varchar(100)", "text", nil},
		{"mediumblob", "blob", []string{"LENGTH(`c`) > 65535"}},
		{"int", "tinyint", []string{"`c` < -128 OR `c` > 127"}},
		{"int", "int unsigned", []string{"`c` < 0"}},
		{"bigint unsigned", "bigint", []string{"`c` > 9223372036854775807"}},
		{"double", "int", []string{"`c` < -2147483648 OR `c` > 2147483647"}},
		{"decimal(12,4)", "decimal(8,2)", []string{"ROUND(`c`, 2) < -999999.99 OR ROUND(`c`, 2) > 999999.99", "~ `c` <> ROUND(`c`, 2)"}},
		{"int", "decimal(12,0)", nil},
		{"enum('a','b','c')", "enum('A','b')", []string{"`c` IN ('c')"}},
		{"enum('long','x')", "varchar(3)", []string{"CHAR_LENGTH(`c`) > 3"}},
		{"set('a','b')", "set('a')", []string{"FIND_IN_SET('b', `c`) > 0"}},
	} {
		bs, _ := Breaches(ty(c.from), ty(c.to), "`c`")
		var got []string
		for _, b := range bs {
			w := b.Where
			if b.Rounds {
				w = "~ " + w
			}
			if b.Charset {
				w = "? " + w
			}
			got = append(got, w)
		}
		if strings.Join(got, " | ") != strings.Join(c.where, " | ") {
			t.Errorf("%s -> %s: %q, want %q", c.from, c.to, got, c.where)
		}
	}
}
