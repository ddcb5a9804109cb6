package dbtest

import (
	"errors"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// sysProcAttr makes the kernel SIGKILL a server when the test binary dies, so
// that a crashed or timed-out test leaves no server behind.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// spawner starts every server from one goroutine locked to its OS thread.
// Pdeathsig fires when the thread that forked the child exits, not the
// process, and the Go runtime ends a thread whenever a goroutine locked to it
// returns; so the forking thread is one that lives as long as the binary.
var spawner struct {
	once sync.Once
	jobs chan func()
}

// startCmd starts cmd from the spawner thread.
func startCmd(cmd *exec.Cmd) error {
	spawner.once.Do(func() {
		spawner.jobs = make(chan func())
		go func() {
			runtime.LockOSThread() // never unlocked: the thread must not be reused or ended
			for job := range spawner.jobs {
				job()
			}
		}()
	})
	errc := make(chan error, 1)
	spawner.jobs <- func() { errc <- cmd.Start() }
	return <-errc
}

// processAlive reports whether a process with this pid exists.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
