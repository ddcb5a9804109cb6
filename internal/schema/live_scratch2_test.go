package schema

import (
	"fmt"
	"testing"
)

func TestScratchDump(t *testing.T) {
	for _, p := range []string{"testdata/mysql8_0/inventory.json", "testdata/mysql8_4/account.json"} {
		s, _, err := FromRows(readFixture(t, p))
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range s.Sorted() {
			fmt.Printf("%s %s pk=%v\n", tb.Name, tb.Engine, tb.PrimaryKey)
			for _, c := range tb.Columns {
				d := "<nil>"
				if c.Default != nil {
					d = *c.Default
				}
				fmt.Printf("  col %s %s u=%v n=%v ai=%v def=%s\n", c.Name, c.Type, c.Unsigned, c.Nullable, c.AutoIncrement, d)
			}
			for _, ix := range tb.Indexes {
				fmt.Printf("  ix %+v\n", *ix)
			}
			for _, ch := range tb.Checks {
				fmt.Printf("  ck %+v\n", *ch)
			}
		}
	}
}
