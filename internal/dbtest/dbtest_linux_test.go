package dbtest

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// exitedPid returns the pid of a process that has ended and been reaped.
func exitedPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.ProcessState.Pid()
}

// gone reports whether pid has ended: no such process, or a zombie nobody
// reaps (in a container the reaper may be missing).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// The state follows the parenthesised command name.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] == "Z"
}

const orphanHelperEnv = "GUARD_DBTEST_ORPHAN_HELPER"

// TestOrphanHelper is the child of TestServersDieWithTestBinary: it starts a
// redis-server and a mariadbd, reports their pids and waits to be killed.
func TestOrphanHelper(t *testing.T) {
	if os.Getenv(orphanHelperEnv) != "1" {
		return // only meaningful as the child process
	}
	r := startRedis(t, plainRedisArgs)
	db := MySQL(t)
	os.Stdout.WriteString(strconv.Itoa(r.proc.cmd.Process.Pid) + " " + strconv.Itoa(db.Server().proc.cmd.Process.Pid) + "\n")
	select {}
}

func TestServersDieWithTestBinary(t *testing.T) {
	child := exec.Command(os.Args[0], "-test.run=^TestOrphanHelper$", "-test.timeout=2m")
	child.Env = append(os.Environ(), orphanHelperEnv+"=1")
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("read the server pids from the child: %v", err)
	}
	var pids []int
	for _, field := range strings.Fields(line) {
		pid, err := strconv.Atoi(field)
		if err != nil {
			t.Fatalf("child said %q", line)
		}
		pids = append(pids, pid)
	}
	names := []string{"redis-server", "mariadbd"}
	if len(pids) != len(names) {
		t.Fatalf("child said %q, want %d pids", line, len(names))
	}
	for i, pid := range pids {
		if gone(pid) {
			t.Fatalf("%s %d not running before the kill", names[i], pid)
		}
	}
	// SIGKILL: the child gets no chance to clean up, only the kernel acts.
	child.Process.Kill()
	child.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for i, pid := range pids {
		for !gone(pid) {
			if time.Now().After(deadline) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("%s %d survived its test binary", names[i], pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func TestRemoveStaleDirs(t *testing.T) {
	base := t.TempDir()
	deadPid := exitedPid(t)
	dirs := []struct {
		name  string
		owner string // content of owner.pid; "-" for no file
		kept  bool
	}{
		{dirPrefix + "mariadb-dead", strconv.Itoa(deadPid), false},
		{dirPrefix + "redis-self", strconv.Itoa(os.Getpid()), true},
		{dirPrefix + "mariadb-creating", "-", true},
		{dirPrefix + "mariadb-garbled", "not a pid", true},
		{"other-" + strconv.Itoa(deadPid), strconv.Itoa(deadPid), true},
	}
	for _, d := range dirs {
		path := filepath.Join(base, d.name)
		if err := os.Mkdir(path, 0o700); err != nil {
			t.Fatal(err)
		}
		if d.owner != "-" {
			if err := os.WriteFile(filepath.Join(path, ownerFile), []byte(d.owner), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	removeStaleDirs(base)
	for _, d := range dirs {
		_, err := os.Stat(filepath.Join(base, d.name))
		if kept := err == nil; kept != d.kept {
			t.Errorf("%s: kept = %v, want %v", d.name, kept, d.kept)
		}
	}
}
