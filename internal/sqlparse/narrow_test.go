package sqlparse

import "testing"

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
