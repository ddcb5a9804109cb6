//go:build !linux

package dbtest

import (
	"os/exec"
	"syscall"
)

// sysProcAttr has nothing to add outside Linux: only Main stops the servers.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// startCmd starts cmd.
func startCmd(cmd *exec.Cmd) error { return cmd.Start() }

// processAlive assumes every process is alive, so that stale directories are
// never removed where their owner cannot be checked.
func processAlive(pid int) bool { return true }
