package migrator

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// handOver gives cmd files that exist on no disk: each is an anonymous
// memory file (memfd) the child inherits, named to it as /dev/fd/N. On
// Linux opening /dev/fd/N opens the file anew from its start, so the tool
// reads its option file at every connection it makes (a pipe would be
// read once: the second connection would find it empty and log in as the
// OS user). The files go with the last process holding them, whether
// guard ends well, is interrupted or is killed; done closes guard's
// copies.
func handOver(cmd *exec.Cmd, files []oscFile) (paths []string, done func(), err error) {
	var held []*os.File
	done = func() {
		for _, f := range held {
			f.Close()
		}
	}
	for _, of := range files {
		f, err := unnamedFile(of)
		if err != nil {
			done()
			return nil, nil, fmt.Errorf("hand %s its %s: %w", PTOSCBinary, of.name, err)
		}
		held = append(held, f)
		cmd.ExtraFiles = append(cmd.ExtraFiles, f)
		// ExtraFiles[i] is the child's descriptor 3+i.
		paths = append(paths, fmt.Sprintf("/dev/fd/%d", 2+len(cmd.ExtraFiles)))
	}
	return paths, done, nil
}

// unnamedFile holds of's body in a file without a name on disk, mode 0600
// (the MySQL client library ignores a world-writable option file, and a
// memfd starts 0777). Where memfd_create is refused (seccomp, an old
// kernel) the file is created in a private directory and unlinked before
// the tool starts.
func unnamedFile(of oscFile) (*os.File, error) {
	var f *os.File
	fd, err := unix.MemfdCreate("guard-osc-"+of.name, unix.MFD_CLOEXEC)
	if err == nil {
		f = os.NewFile(uintptr(fd), of.name)
		if err := f.Chmod(0o600); err != nil {
			f.Close()
			return nil, err
		}
	} else {
		dir, err := os.MkdirTemp("", "guard-osc-")
		if err != nil {
			return nil, err
		}
		f, err = os.CreateTemp(dir, of.name)
		os.RemoveAll(dir)
		if err != nil {
			return nil, err
		}
	}
	if _, err := f.Write(of.body); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// dieWithGuard has the kernel send the tool SIGTERM when guard dies,
// however it dies (SIGKILL, the OOM killer): the tool stops as on an
// interrupt, before the swap, leaving its triggers and its copy for the
// next run to drop (see recoverOSC), instead of swapping the tables alone
// behind a dirty version. The signal follows the thread that started the
// child, not the process: execPTOSC keeps its goroutine on that thread
// until the tool has ended.
func dieWithGuard(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
