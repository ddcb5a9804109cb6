package dbtest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// installTimeout bounds mariadb-install-db.
const installTimeout = 2 * time.Minute

// installation creates the system tables of a throwaway server.
type installation struct {
	installer string // mariadb-install-db or mysql_install_db
	mariadbd  string
	osUser    string
}

// args returns the installer's options. The innodb sizes must match those
// mariadbd starts with, or the server refuses the files.
func (in installation) args(datadir string) []string {
	return []string{
		"--no-defaults",
		"--datadir=" + datadir,
		"--user=" + in.osUser,
		"--auth-root-authentication-method=socket",
		"--skip-test-db",
		"--skip-name-resolve",
		"--skip-log-bin",
		"--innodb-buffer-pool-size=64M",
		"--innodb-log-file-size=16M",
		"--innodb-flush-log-at-trx-commit=2",
		"--innodb-doublewrite=0",
		"--innodb-use-native-aio=0",
	}
}

// prepare fills datadir with fresh system tables. mariadb-install-db takes
// seconds where a copy takes milliseconds, so its result is kept once per
// machine, installation and user under the user cache directory and copied;
// when that cache is unusable the installer runs straight into datadir.
// It returns the template used, if any.
func (in installation) prepare(datadir string) (template string, err error) {
	template, err = in.template()
	if err == nil {
		if err = copyTree(template, datadir); err == nil {
			return template, nil
		}
		os.RemoveAll(datadir)
	}
	return "", in.run(datadir)
}

// template returns the cached data directory, creating it when missing. The
// installer runs in a private directory renamed into place when done, so a
// concurrent test binary sees either no template or a complete one.
func (in installation) template() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the cache directory: %w", err)
	}
	key, err := in.key()
	if err != nil {
		return "", err
	}
	root := filepath.Join(cache, "guard", "dbtest")
	template := filepath.Join(root, "mariadb-"+key)
	if info, err := os.Stat(template); err == nil && info.IsDir() {
		return template, nil
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", fmt.Errorf("create the template cache: %w", err)
	}
	build, err := os.MkdirTemp(root, "build-*")
	if err != nil {
		return "", fmt.Errorf("create the template cache: %w", err)
	}
	defer os.RemoveAll(build)
	datadir := filepath.Join(build, "data")
	if err := in.run(datadir); err != nil {
		return "", err
	}
	if err := os.Rename(datadir, template); err != nil {
		// Another binary won the race; its template is as good as ours.
		if info, statErr := os.Stat(template); statErr == nil && info.IsDir() {
			return template, nil
		}
		return "", fmt.Errorf("store the template data directory: %w", err)
	}
	return template, nil
}

// key identifies what the template depends on: the binaries (an upgrade
// changes size or time), the user and the options.
func (in installation) key() (string, error) {
	h := sha256.New()
	for _, bin := range []string{in.installer, in.mariadbd} {
		info, err := os.Stat(bin)
		if err != nil {
			return "", fmt.Errorf("stat %s: %w", bin, err)
		}
		fmt.Fprintf(h, "%s %d %d\n", bin, info.Size(), info.ModTime().UnixNano())
	}
	fmt.Fprintf(h, "%s\n%s\n", in.osUser, strings.Join(in.args(""), " "))
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// run executes the installer into datadir.
func (in installation) run(datadir string) error {
	dir := filepath.Dir(datadir)
	logPath := filepath.Join(dir, "install.log")
	p, err := startProcess(filepath.Base(in.installer), in.installer, in.args(datadir), logPath)
	if err != nil {
		return err
	}
	timer := time.NewTimer(installTimeout)
	defer timer.Stop()
	select {
	case <-p.done:
	case <-timer.C:
		p.kill()
		return fmt.Errorf("%s did not finish in %v; %s:\n%s", in.installer, installTimeout, logPath, p.logTail())
	}
	if p.err != nil {
		return fmt.Errorf("%s: %w; %s:\n%s", in.installer, p.err, logPath, p.logTail())
	}
	return nil
}

// copyTree copies the directories and regular files under src to dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o700)
		case d.Type().IsRegular():
			return copyFile(path, target)
		}
		return nil
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, info.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return out.Close()
}

// ownerFile holds the pid of the test binary that owns a server directory.
const ownerFile = "owner.pid"

// dirPrefix starts the name of every server directory.
const dirPrefix = "guard-dbtest-"

// newServerDir creates the temporary directory of a server, registered for
// removal by Main. It first removes the directories of test binaries that
// died without Main, so that they do not pile up.
func newServerDir(kind string) (string, error) {
	base := os.TempDir()
	// A unix socket path is limited to about 100 bytes.
	if len(base) > 60 {
		base = "/tmp"
	}
	removeStaleDirs(base)
	dir, err := os.MkdirTemp(base, dirPrefix+kind+"-*")
	if err != nil {
		return "", fmt.Errorf("create %s directory: %w", kind, err)
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("create %s directory: %w", kind, err)
	}
	registerDir(dir)
	return dir, nil
}

// removeStaleDirs removes the server directories under base whose owner is
// no longer running. Failures are ignored: the next run tries again.
func removeStaleDirs(base string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), dirPrefix) {
			continue
		}
		dir := filepath.Join(base, e.Name())
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if errors.Is(err, fs.ErrNotExist) {
			continue // not ours, or still being created
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.RemoveAll(dir)
	}
}
