package plan

import (
	"github.com/guard-sql/guard/internal/schema"
	"strings"
	"testing"
)

func TestHandOff(t *testing.T) {
	steps := []Step{
		{Table: "t_stock", Guard: GuardCheck, Algorithm: schema.AlgorithmCopy, BlocksWrites: true, Name: "guard_t_stock_qty_nonneg",
			Up: "ALTER TABLE `t_stock` ADD CONSTRAINT `chk` CHECK (`qty` >= 0), ALGORITHM=COPY, LOCK=SHARED", Rule: "GS003"},
		{Table: "t_stock", Guard: GuardUnique, Algorithm: schema.AlgorithmInplace, Name: "guard_t_stock_sku_unique",
			Up: "ALTER TABLE `t_stock` ADD UNIQUE INDEX `uk` (`sku`), ALGORITHM=INPLACE, LOCK=NONE", Rule: "GS005"},
	}
	if got := HandOff(steps, ""); got[0].OSC != "" || !got[0].BlocksWrites {
		t.Errorf("no tool: %+v", got[0])
	}
	got := HandOff(steps, OSCPTOnlineSchemaChange)
	if got[0].OSC != OSCPTOnlineSchemaChange || got[0].BlocksWrites || got[1].OSC != "" {
		t.Fatalf("handed off: %+v", got)
	}
	if steps[0].OSC != "" {
		t.Error("HandOff changed its input")
	}
	up := string(upFile(got[0]))
	lines := strings.Split(up, "\n")
	if lines[1] != "-- guard:osc pt-osc" || !strings.Contains(up, "-- guard:ignore GM003 ") || !strings.HasSuffix(up, got[0].Up+";\n") {
		t.Errorf("up file:\n%s", up)
	}
	if strings.Contains(string(upFile(got[1])), "guard:osc") {
		t.Error("the INPLACE step carries the directive")
	}
}
