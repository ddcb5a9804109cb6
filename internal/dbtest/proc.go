package dbtest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// stopTimeout is how long a server gets to exit after SIGTERM before SIGKILL.
const stopTimeout = 10 * time.Second

// process is one server the test binary started.
type process struct {
	name string
	cmd  *exec.Cmd
	log  string        // file holding the server's stdout and stderr
	done chan struct{} // closed once the process has exited
	err  error         // what Wait returned; read after done
}

// startProcess starts bin with args, stdout and stderr going to logPath, and
// registers it so that Main stops it.
func startProcess(name, bin string, args []string, logPath string) (*process, error) {
	out, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	defer out.Close() // the child holds its own copy
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Dir = filepath.Dir(logPath)
	cmd.SysProcAttr = sysProcAttr()
	if err := startCmd(cmd); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &process{name: name, cmd: cmd, log: logPath, done: make(chan struct{})}
	registerProcess(p)
	go func() {
		p.err = cmd.Wait()
		unregisterProcess(p)
		close(p.done)
	}()
	return p, nil
}

// exited reports whether the process has ended.
func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop sends SIGTERM, waits up to timeout, then SIGKILLs, and returns once
// the process is gone.
func (p *process) stop(timeout time.Duration) {
	if p.exited() {
		return
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-p.done:
	case <-timer.C:
		p.kill()
	}
}

// kill sends SIGKILL and returns once the process is gone.
func (p *process) kill() {
	if p.exited() {
		return
	}
	p.cmd.Process.Kill()
	<-p.done
}

// logTail returns the last lines of the process's output, for failure
// messages.
func (p *process) logTail() string {
	return fileTail(p.log, 20)
}

// fileTail returns the last n lines of the file at path, or a note saying
// why it cannot.
func fileTail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(no log: %v)", err)
	}
	b = bytes.TrimRight(b, "\n")
	lines := bytes.Split(b, []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}

// errAddrInUse says a server could not bind its port: the caller picks
// another one and starts again.
var errAddrInUse = errors.New("address already in use")

// freePort asks the kernel for a free loopback port. Another process may take
// it before the server binds it, so callers retry on errAddrInUse.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// loopback returns the 127.0.0.1 address of port.
func loopback(port int) string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
}

// findBinary returns the first of names found in PATH or in dirs, or an error
// ending with advice (how to install it).
func findBinary(names []string, dirs []string, advice string) (string, error) {
	for _, name := range names {
		if path, err := exec.LookPath(name); err == nil {
			return path, nil
		}
	}
	for _, dir := range dirs {
		for _, name := range names {
			path := filepath.Join(dir, name)
			if info, err := os.Stat(path); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
				return path, nil
			}
		}
	}
	return "", fmt.Errorf("%s not found: %s", names[0], advice)
}
