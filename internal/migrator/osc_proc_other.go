//go:build !linux

package migrator

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// handOver writes files into a private temporary directory (0700, each
// file 0600) and names them to cmd by path; done removes the directory.
// Elsewhere than on Linux /dev/fd/N of an unlinked file does not reopen it
// from its start (it duplicates the descriptor, offset included), so the
// tool's second connection would read nothing: the files need a name
// while the tool runs, and a guard killed meanwhile leaves them behind.
func handOver(cmd *exec.Cmd, files []oscFile) (paths []string, done func(), err error) {
	dir, err := os.MkdirTemp("", "guard-osc-")
	if err != nil {
		return nil, nil, fmt.Errorf("hand %s its files: %w", PTOSCBinary, err)
	}
	done = func() { os.RemoveAll(dir) }
	for _, of := range files {
		p := filepath.Join(dir, of.name)
		if err := os.WriteFile(p, of.body, 0o600); err != nil {
			done()
			return nil, nil, fmt.Errorf("hand %s its %s: %w", PTOSCBinary, of.name, err)
		}
		paths = append(paths, p)
	}
	return paths, done, nil
}

// dieWithGuard does nothing here: only Linux lets a child ask for a signal
// when its parent dies. A guard killed while the tool runs leaves it
// running; the next run finds its lock held and leaves it be.
func dieWithGuard(*exec.Cmd) {}
