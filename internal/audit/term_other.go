//go:build !linux

package audit

import "os"

// isTerminal reports whether f is a character device, the best guess
// without a terminal ioctl.
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
