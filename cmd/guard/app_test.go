package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// leafCommands are the paths of every command that runs an action, e.g.
// ["gen", "dao"], read from the app itself so that a new command is covered.
func leafCommands(cmds []*cli.Command, parent []string) [][]string {
	var out [][]string
	for _, c := range cmds {
		path := append(append([]string{}, parent...), c.Name)
		if len(c.Subcommands) == 0 {
			out = append(out, path)
			continue
		}
		out = append(out, leafCommands(c.Subcommands, path)...)
	}
	return out
}

// requiredArgs are the flags and arguments a command needs before it looks
// at anything else: its required flags and its positional arguments.
func requiredArgs(path []string) []string {
	switch strings.Join(path, " ") {
	case "gen dao":
		return []string{"--table", "t", "--out", "o"}
	case "gen templates", "gen alerts":
		return []string{"--out", "o"}
	case "gen table":
		return []string{"t_x"}
	case "drill":
		return []string{"--table", "t"}
	case "report comment":
		return []string{"--file", "f"}
	case "migrate down", "migrate goto", "migrate force":
		return []string{"1"}
	}
	return nil
}

// TestSharedFlagsEveryCommand gives every command each malformed value of the
// shared flags, before and (where the command parses them itself) after its
// arguments: always exit 2, one line on stderr naming the flag, nothing on
// stdout, and never a database or a file touched.
func TestSharedFlagsEveryCommand(t *testing.T) {
	t.Setenv("GUARD_DSN", "")
	t.Chdir(t.TempDir())
	bad := []struct {
		args []string
		want string
		last bool // a flag without its value: only as the last argument
	}{
		{[]string{"--format", "xml"}, `^guard: --format "xml": want [a-z, ]+$`, false},
		{[]string{"--fail-on", "bogus"}, `^guard: --fail-on "bogus": want error, warning or never$`, false},
		{[]string{"--config", "missing.toml"}, `^guard: missing.toml: read policy: .*$`, false},
		{[]string{"--no-color=maybe"}, `^guard: invalid (boolean )?value "maybe" for flag --no-color: .*; see guard .* --help$`, false},
		{[]string{"--bogus"}, `^guard: unknown flag --bogus; see guard [a-z ]+ --help$`, false},
		{[]string{"--format"}, `^guard: flag --format needs a value; see guard [a-z ]+ --help$`, true},
	}
	app := newApp(io.Discard, io.Discard)
	leaves := leafCommands(app.Commands, nil)
	if len(leaves) < 12 {
		t.Fatalf("only %d commands found: %v", len(leaves), leaves)
	}
	for _, path := range leaves {
		for _, b := range bad {
			placements := [][]string{append(append(append([]string{}, path...), b.args...), requiredArgs(path)...)}
			if b.last {
				placements = [][]string{append(append(append([]string{}, path...), requiredArgs(path)...), b.args...)}
			} else if req := requiredArgs(path); len(req) > 0 && !strings.HasPrefix(req[0], "--") {
				// Flags after the positional argument.
				placements = append(placements, append(append(append([]string{}, path...), req...), b.args...))
			}
			if path[0] == "migrate" && !b.last {
				// Flags before the subcommand.
				placements = append(placements, append(append(append([]string{"migrate"}, b.args...), path[1:]...), requiredArgs(path)...))
			}
			for _, args := range placements {
				out, errOut, code := guard(t, args...)
				line := strings.TrimSuffix(errOut, "\n")
				if code != exitInput || out != "" || strings.Contains(line, "\n") || !regexp.MustCompile(b.want).MatchString(line) {
					t.Errorf("guard %s: exit %d, stdout %q, stderr %q; want exit 2, no stdout, one line matching %s",
						strings.Join(args, " "), code, out, errOut, b.want)
				}
			}
		}
	}
}

// TestUsageHintNamesTheCommand checks the hint points at the help of the
// command that was given the flag.
func TestUsageHintNamesTheCommand(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--x"}, "guard: unknown flag --x; see guard --help\n"},
		{[]string{"lint", "--x"}, "guard: unknown flag --x; see guard lint --help\n"},
		{[]string{"gen", "dao", "--x"}, "guard: unknown flag --x; see guard gen dao --help\n"},
		{[]string{"migrate", "--x", "status"}, "guard: unknown flag --x; see guard migrate --help\n"},
		{[]string{"migrate", "down", "1", "--x"}, "guard: unknown flag --x; see guard migrate down --help\n"},
		{[]string{"drill"}, "guard: missing --table; see guard drill --help\n"},
		{[]string{"bogus"}, "guard: unknown command \"bogus\"; see guard --help\n"},
		{[]string{"gen", "bogus"}, "guard: unknown command \"bogus\"; see guard gen --help\n"},
		{[]string{"migrate", "--skip-preflight", "status"}, "guard: --skip-preflight: migrate status applies nothing; see guard migrate status --help\n"},
	} {
		out, errOut, code := guard(t, tt.args...)
		if code != exitInput || out != "" || errOut != tt.want {
			t.Errorf("guard %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", strings.Join(tt.args, " "), code, out, errOut, tt.want)
		}
	}
}

// TestHelpListsSupportedFormats checks each command's help names exactly the
// formats it writes, and --fail-on only where findings decide the exit code.
func TestHelpListsSupportedFormats(t *testing.T) {
	all := "text, json, sarif, github, gitlab, markdown, html"
	want := map[string]struct {
		formats string // "" when the command has no --format in its help
		failOn  bool
	}{
		"init": {"text, json", false}, "lint": {all, true}, "audit": {all, true},
		"migrate up": {"text, json, html", false}, "migrate down": {"text, json, html", false},
		"migrate goto": {"text, json, html", false}, "migrate force": {"text, json", false},
		"migrate version": {"text, json", false}, "migrate status": {"text, json", false},
		"rules": {"text, json", false}, "plan": {"text, json", false},
		"gen dao": {"", false}, "gen table": {"", false}, "gen templates": {"", false}, "gen alerts": {"", false},
		"drill": {"text, json, html", true}, "report comment": {"", false}, "cache clean": {"", false},
	}
	formatRE := regexp.MustCompile(`--format value\s+output format: ([a-z, ]+)`)
	for _, path := range leafCommands(newApp(io.Discard, io.Discard).Commands, nil) {
		name := strings.Join(path, " ")
		w, ok := want[name]
		if !ok {
			t.Errorf("%s: no expectation: add it here", name)
			continue
		}
		out, errOut, code := guard(t, append(path, "--help")...)
		if code != exitClean {
			t.Errorf("guard %s --help: exit %d, stderr %q", name, code, errOut)
			continue
		}
		got := ""
		if m := formatRE.FindStringSubmatch(out); m != nil {
			got = strings.TrimSpace(m[1])
		}
		if got != w.formats {
			t.Errorf("guard %s --help lists formats %q, want %q", name, got, w.formats)
		}
		if strings.Contains(out, "--fail-on") != w.failOn {
			t.Errorf("guard %s --help: --fail-on listed = %v, want %v", name, !w.failOn, w.failOn)
		}
	}
}

// TestPathNamedLikeCommandWord lints a folder named help or h, also after --:
// a path that exists is always a path, never urfave/cli's help command. Only
// a help that names no file shows the help.
func TestPathNamedLikeCommandWord(t *testing.T) {
	t.Setenv("GUARD_DSN", "")
	t.Chdir(t.TempDir())
	for _, args := range [][]string{{"lint", "help"}, {"lint", "h"}, {"lint", "--", "help"}, {"lint", "--format", "json", "h"}} {
		if err := os.RemoveAll(args[len(args)-1]); err != nil {
			t.Fatal(err)
		}
		dir := args[len(args)-1]
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "q.sql"), []byte("UPDATE t SET stock = stock - 1 WHERE id = 1;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := guard(t, args...)
		if code != 1 || !strings.Contains(stdout, "GQ002") || strings.Contains(stdout, "USAGE:") {
			t.Errorf("guard %s: exit %d, want 1 with the GQ002 of %s/q.sql\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, dir, stdout, stderr)
		}
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
	}
	stdout, _, code := guard(t, "lint", "help")
	if code != 0 || !strings.Contains(stdout, "guard lint") || !strings.Contains(stdout, "USAGE:") {
		t.Errorf("guard lint help without a folder help: exit %d, want the help and 0\n%s", code, stdout)
	}
}
