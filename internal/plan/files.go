package plan

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
)

// DefaultWidth is the number of digits of a version when a folder has no
// migration to copy the width from: golang-migrate's `create -seq` default.
const DefaultWidth = 6

// File is one migration file to write.
type File struct {
	// Name is the file name: NNNNNN_title.up.sql or .down.sql.
	Name string
	Data []byte
	// Mode is the file's permissions; 0 writes 0644.
	Mode os.FileMode
}

// Suppression reasons written above the statements that guard's own
// migration rules would report, so that planned migrations lint clean.
const (
	reasonBlocking = "adding a CHECK validates every row in a table copy; planned in its own file, run it in a quiet window"
	reasonTrigger  = "trigger bodies are outside the SQL guard parses; written by guard plan"
	reasonOSC      = "guard migrate runs it through pt-online-schema-change, which copies the table without blocking writes"
	reasonRows     = "guard migrate's preflight counts the rows that would make it fail and refuses before applying anything"
)

// ruleNames names the rules whose findings the steps fix.
var ruleNames = map[string]string{
	"GS001": "strict-sql-mode",
	"GS003": "counter-without-check",
	"GS004": "nullable-counter",
	"GS005": "business-key-not-unique",
	"GS006": "missing-version-column",
}

// Files renders the up and down file of each step, numbered from first on
// with width digits, up before down.
func Files(steps []Step, first uint64, width int) []File {
	var out []File
	for i, st := range steps {
		base := fmt.Sprintf("%0*d_%s", width, first+uint64(i), st.Name)
		out = append(out,
			File{Name: base + ".up.sql", Data: upFile(st)},
			File{Name: base + ".down.sql", Data: downFile(st, base+".up.sql")})
	}
	return out
}

func upFile(st Step) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "-- guard plan: %s\n", st.What)
	if st.OSC != "" {
		b.WriteString(oscDirective + st.OSC + "\n")
	}
	fmt.Fprintf(&b, "-- Fixes %s %s.\n", st.Rule, ruleNames[st.Rule])
	blocks := "no"
	switch {
	case st.BlocksWrites:
		blocks = "yes, for the whole statement"
	case st.OSC != "":
		blocks = "no under guard migrate (" + st.OSC + "); yes, for the whole statement, run as written"
	}
	fmt.Fprintf(&b, "-- Algorithm: %s; blocks writes: %s; rows: %s.\n", st.Algorithm, blocks, rowsText(st))
	if st.Note != "" {
		fmt.Fprintf(&b, "-- Note: %s.\n", st.Note)
	}
	switch st.Guard {
	case GuardNotNull, GuardCheck, GuardUnique:
		fmt.Fprintf(&b, "-- guard:ignore GM007 %s\n", reasonRows)
	}
	switch {
	case st.Guard == GuardTrigger:
		fmt.Fprintf(&b, "-- guard:ignore GQ009 %s\n", reasonTrigger)
	case st.BlocksWrites:
		fmt.Fprintf(&b, "-- guard:ignore GM003 %s\n", reasonBlocking)
	case st.OSC != "":
		fmt.Fprintf(&b, "-- guard:ignore GM003 %s\n", reasonOSC)
	}
	b.WriteString(st.Up + ";\n")
	return []byte(b.String())
}

func downFile(st Step, up string) []byte {
	return []byte(fmt.Sprintf("-- guard plan: rolls back %s (%s).\n%s;\n", up, st.What, st.Down))
}

// rowsText prints a row count, or says it is unknown.
func rowsText(st Step) string {
	switch {
	case st.Table == "":
		return "n/a (server-wide)"
	case st.Rows < 0:
		return "unknown (planned offline)"
	}
	return fmt.Sprint(st.Rows)
}

// NextVersion returns the version after the highest one of the migration
// files in dirs (1 when there is none) and the width of that file's version,
// which the next files keep: 6 for 000042_x.up.sql, 14 for timestamps. A
// folder that does not exist holds no migration.
func NextVersion(dirs ...string) (next uint64, width int, err error) {
	var max uint64
	width = DefaultWidth
	found := false
	for _, dir := range dirs {
		files, err := schema.ListMigrations(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, 0, err
		}
		for _, f := range files {
			if !found || f.Version > max {
				max, found = f.Version, true
				width = digits(filepath.Base(f.Path))
			}
		}
	}
	if !found {
		return 1, width, nil
	}
	return max + 1, width, nil
}

// digits counts the leading digits of a file name.
func digits(name string) int {
	n := 0
	for n < len(name) && name[n] >= '0' && name[n] <= '9' {
		n++
	}
	return n
}

// WriteFiles writes the files of steps into dir, numbered after the last
// migration in dir, and returns their paths.
func WriteFiles(dir string, steps []Step) ([]string, error) {
	next, width, err := NextVersion(dir)
	if err != nil {
		return nil, err
	}
	return WriteFilesAt(dir, Files(steps, next, width))
}

// WriteFilesAt writes files into dir, creating it when missing, and returns
// their paths. It never overwrites a file: when one exists, or a write
// fails, the files written so far are removed and the error says why.
func WriteFilesAt(dir string, files []File) ([]string, error) {
	if len(files) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("write migrations: %w", err)
	}
	var written []string
	undo := func(err error) ([]string, error) {
		for _, p := range written {
			os.Remove(p)
		}
		return nil, fmt.Errorf("write migrations: %w", err)
	}
	for _, f := range files {
		p := filepath.Join(dir, f.Name)
		mode := f.Mode
		if mode == 0 {
			mode = 0o644
		}
		fh, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if err != nil {
			return undo(err)
		}
		written = append(written, p)
		if _, err := fh.Write(f.Data); err != nil {
			fh.Close()
			return undo(err)
		}
		if err := fh.Close(); err != nil {
			return undo(err)
		}
	}
	return written, nil
}

// Unwritten returns the steps whose files are not in dirs yet: a live plan
// sees only what the server has applied, so a step written by an earlier
// plan and still pending would otherwise be written again. A step is known
// by its file title.
func Unwritten(steps []Step, dirs ...string) ([]Step, error) {
	titles := map[string]bool{}
	for _, dir := range dirs {
		files, err := schema.ListMigrations(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			titles[f.Name] = true
		}
	}
	var out []Step
	for _, st := range steps {
		if !titles[st.Name] {
			out = append(out, st)
		}
	}
	return out, nil
}
