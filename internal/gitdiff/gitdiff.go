// Package gitdiff asks git which lines of the working tree changed since a
// revision, for guard lint --new-from-rev. It is the only part of guard
// that runs git.
package gitdiff

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/driver"
)

// Errors of Changed that are the user's input, not a failure of git.
var (
	ErrNoGit           = errors.New("git is not installed")
	ErrNotWorkTree     = errors.New("not inside a git work tree")
	ErrUnknownRevision = errors.New("unknown revision")
)

// Changed returns the lines of the work tree holding dir that changed since
// the commit rev names, by absolute file path: the lines git diff shows
// added or modified between rev and the files as they are on disk, staged
// or not, with renames followed (a file only renamed has no changed line);
// where lines were only deleted, the lines on either side of the gap. A
// file git does not track and does not ignore is new in every line.
func Changed(ctx context.Context, dir, rev string) (map[string][]driver.LineRange, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, ErrNoGit
	}
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("%w (%s): %v", ErrNotWorkTree, dir, err)
	}
	root := strings.TrimSpace(string(top))
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("%w %q", ErrUnknownRevision, rev)
	}
	commit, err := git(ctx, root, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return nil, unknownRevision(ctx, root, rev)
	}
	diff, err := git(ctx, root, "-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "--no-textconv",
		"--ignore-submodules", "--src-prefix=a/", "--dst-prefix=b/", "-M", "--unified=0", strings.TrimSpace(string(commit)), "--")
	if err != nil {
		return nil, fmt.Errorf("git diff %s: %v", rev, err)
	}
	out, err := parseDiff(diff)
	if err != nil {
		return nil, fmt.Errorf("git diff %s: %w", rev, err)
	}
	untracked, err := git(ctx, root, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %v", err)
	}
	for _, p := range strings.Split(string(untracked), "\x00") {
		if p != "" {
			out[p] = []driver.LineRange{driver.WholeFile}
		}
	}
	abs := make(map[string][]driver.LineRange, len(out))
	for p, rs := range out {
		abs[filepath.Join(root, filepath.FromSlash(p))] = rs
	}
	return abs, nil
}

// FilesAt returns the files folder dir of the work tree held at the commit
// rev names, by absolute path: its own files, not those of its subfolders;
// none when it did not exist there. guard lint --new-from-rev compares a
// migrations folder's new files with them (GM008).
func FilesAt(ctx context.Context, dir, rev string) ([]string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, ErrNoGit
	}
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel", "--show-prefix")
	if err != nil {
		return nil, fmt.Errorf("%w (%s): %v", ErrNotWorkTree, dir, err)
	}
	root, prefix, _ := strings.Cut(strings.TrimRight(string(top), "\n"), "\n")
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("%w %q", ErrUnknownRevision, rev)
	}
	commit, err := git(ctx, root, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return nil, unknownRevision(ctx, root, rev)
	}
	// With the folder's prefix (ending in a slash) ls-tree lists the
	// folder's entries, by their paths from the top; at the top, the top's.
	args := []string{"ls-tree", "-z", strings.TrimSpace(string(commit))}
	if prefix != "" {
		args = append(args, "--", prefix)
	}
	list, err := git(ctx, root, args...)
	if err != nil {
		return nil, fmt.Errorf("git ls-tree %s: %v", rev, err)
	}
	var out []string
	for _, entry := range strings.Split(string(list), "\x00") {
		// "<mode> <type> <object>\t<path>"
		meta, name, ok := strings.Cut(entry, "\t")
		if !ok || len(strings.Fields(meta)) < 2 || strings.Fields(meta)[1] != "blob" {
			continue
		}
		out = append(out, filepath.Join(root, filepath.FromSlash(name)))
	}
	return out, nil
}

// git runs git in dir and returns its standard output; the error holds
// the first line git wrote on standard error.
// unknownRevision is the error of a revision git does not know. In a
// shallow clone (CI checkouts often fetch one commit) the revision is
// usually just not fetched: the error says so and how to fetch it.
func unknownRevision(ctx context.Context, root, rev string) error {
	err := fmt.Errorf("%w %q in %s", ErrUnknownRevision, rev, root)
	if out, gerr := git(ctx, root, "rev-parse", "--is-shallow-repository"); gerr == nil && strings.TrimSpace(string(out)) == "true" {
		return fmt.Errorf("%w: the clone is shallow and may not hold it; fetch the history (git fetch --unshallow, "+
			"or git fetch --deepen=N; with actions/checkout set fetch-depth: 0), or fetch the branch that holds it (git fetch origin BRANCH)", err)
	}
	return err
}

func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n"); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return out, nil
}

// parseDiff reads the new side's changed lines of a unified diff with no
// context lines, by the path the file has in the work tree.
func parseDiff(diff []byte) (map[string][]driver.LineRange, error) {
	out := map[string][]driver.LineRange{}
	file := ""
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "+++ "):
			name := strings.TrimPrefix(line, "+++ ")
			if strings.HasPrefix(name, `"`) {
				unq, err := strconv.Unquote(name)
				if err != nil {
					return nil, fmt.Errorf("file name %s: %v", name, err)
				}
				name = unq
			}
			file = ""
			if p, ok := strings.CutPrefix(name, "b/"); ok {
				file = p
			}
		case strings.HasPrefix(line, "@@ ") && file != "":
			r, err := hunkRange(line)
			if err != nil {
				return nil, err
			}
			out[file] = append(out[file], r)
		}
	}
	return out, sc.Err()
}

// hunkRange reads the new side of a hunk header, "@@ -a,b +c,d @@": lines c
// through c+d-1, or for d = 0 (lines deleted after line c) lines c and c+1.
func hunkRange(header string) (driver.LineRange, error) {
	fields := strings.Fields(header)
	if len(fields) < 3 || !strings.HasPrefix(fields[2], "+") {
		return driver.LineRange{}, fmt.Errorf("hunk header %q", header)
	}
	start, count, hasCount := strings.Cut(fields[2][1:], ",")
	c, err := strconv.Atoi(start)
	if err != nil {
		return driver.LineRange{}, fmt.Errorf("hunk header %q", header)
	}
	d := 1
	if hasCount {
		if d, err = strconv.Atoi(count); err != nil {
			return driver.LineRange{}, fmt.Errorf("hunk header %q", header)
		}
	}
	if d == 0 {
		return driver.LineRange{From: max(c, 1), To: c + 1}, nil
	}
	return driver.LineRange{From: c, To: c + d - 1}, nil
}
