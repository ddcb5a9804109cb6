package migrator

import (
	"fmt"
	"strings"
)

// BlockingError is returned when a pending statement would block writes
// for its whole run on a table with more rows than Options.MaxBlockingRows
// ([migrate] max_blocking_rows): nothing was applied.
type BlockingError struct {
	Max     int64
	Impacts []Impact
}

// Error names each statement, its table, rows and size, and both ways out.
func (e *BlockingError) Error() string {
	var b strings.Builder
	for i, im := range e.Impacts {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s:%d: the statement blocks writes to %s for its whole run (ALGORITHM=%s, LOCK=%s: %s), and %s holds %s (%s)",
			im.File, im.Line, im.Table, im.Algorithm, im.Lock, im.Why, im.Table, rowsText(im), sizeText(im))
	}
	fmt.Fprintf(&b, ", above [migrate] max_blocking_rows = %d; nothing was applied. Either put the line `-- %s %s` before the statement "+
		"(guard then runs it through %s, which copies the rows while writes go on), or pass --allow-blocking to run it as written",
		e.Max, OSCDirective, OSCPTOnlineSchemaChange, PTOSCBinary)
	return b.String()
}

// rowsText prints an impact's rows: "200000 rows", "about 3000000 rows".
func rowsText(im Impact) string {
	if im.RowsExact {
		return plural(im.Rows, "row")
	}
	return "about " + plural(im.Rows, "row")
}

// blocking returns the impacts that block writes on a table above max
// rows (0: no limit) and are not handed to an online schema change tool.
func blocking(ims []Impact, max int64) []Impact {
	if max <= 0 {
		return nil
	}
	var out []Impact
	for _, im := range ims {
		if im.BlocksWrites && im.Tool == "" && im.Rows > max {
			out = append(out, im)
		}
	}
	return out
}

// sizeText prints an impact's size, saying when the statistics it comes
// from are stale.
func sizeText(im Impact) string {
	if im.SizeStale {
		return humanBytes(im.Bytes) + " by stale statistics"
	}
	return humanBytes(im.Bytes)
}
