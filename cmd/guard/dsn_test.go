package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/target"
)

// malformedDSNs are DSNs that do not parse, each with the password it holds.
// The passwords share no three characters with guard's messages, so that a
// piece of one found in the output is a leak, not a coincidence of words.
var malformedDSNs = []struct{ name, dsn, password string }{
	{"issue example", "app:p@ss:w/rd%41?x@tcp(127.0.0.1:3306)", "p@ss:w/rd%41?x"},
	{"no /db", "app:Zq9vKw2x@tcp(127.0.0.1:3306)", "Zq9vKw2x"},
	{"empty db", "app:Zq9vKw2x@tcp(127.0.0.1:3306)/", "Zq9vKw2x"},
	{"@ in password, no /db", "app:Zq9@vKw2x@tcp(127.0.0.1:3306)", "Zq9@vKw2x"},
	{": in password, no /db", "app:Zq9:vKw2x@tcp(127.0.0.1:3306)", "Zq9:vKw2x"},
	{"/ in password, no /db", "app:Zq9/vKw2x@tcp(127.0.0.1:3306)", "Zq9/vKw2x"},
	{"% in password, no /db", "app:Zq9%vKw2x@tcp(127.0.0.1:3306)", "Zq9%vKw2x"},
	{"? in password, no /db", "app:Zq9?vKw2x@tcp(127.0.0.1:3306)", "Zq9?vKw2x"},
	{"password holding an address", "app:Zq9/v@tcp(h:1)/Kw2x@tcp(127.0.0.1:3306)", "Zq9/v@tcp(h:1)/Kw2x"},
	{"unclosed tcp(", "app:Zq9vKw2x@tcp(127.0.0.1:3306/shop", "Zq9vKw2x"},
	{"unclosed tcp( with / in password", "app:Zq9/vKw2x@tcp(127.0.0.1:3306", "Zq9/vKw2x"},
	{"no tcp()", "app:Zq9vKw2x@127.0.0.1:3306/shop", "Zq9vKw2x"},
	{"URL without /db", "mysql://app:Zq9vKw2x@127.0.0.1:3306", "Zq9vKw2x"},
	{"URL, raw / in password", "mysql://app:Zq9/vKw2x@127.0.0.1:3306/shop", "Zq9/vKw2x"},
	{"URL, raw ? in password", "mysql://app:Zq9?vKw2x@127.0.0.1:3306/shop", "Zq9?vKw2x"},
	{"URL, raw # in password", "mysql://app:Zq9#vKw2x@127.0.0.1:3306/shop", "Zq9#vKw2x"},
	{"URL, raw : and @ in password, no /db", "mysql://app:Zq9:v@Kw2x@127.0.0.1:3306", "Zq9:v@Kw2x"},
	{"URL, bad percent-escape", "mysql://app:Zq9%zvKw2x@127.0.0.1:3306/shop", "Zq9%zvKw2x"},
	{"URL, cut percent-escape", "mysql://app:Zq9vKw2x%4@127.0.0.1:3306/shop", "Zq9vKw2x%4"},
	{"URL, numeric password with /", "mysql://app:9147/2863@127.0.0.1:3306/shop", "9147/2863"},
	{"URL, other scheme", "postgres://app:Zq9vKw2x@127.0.0.1:5432/shop", "Zq9vKw2x"},
}

// dsnMessage is the one line a live command prints for a DSN that does not
// parse: where the DSN came from, then one of target's fixed problems.
var dsnMessage = regexp.MustCompile(`^guard: (?:migrate: )?(--dsn #1|--dsn|--redis|GUARD_DSN|[^ ]+\.txt:2): (?:DSN|Redis address): (.*) \(at offset [0-9]+\)\n$`)

// TestMalformedDSNEveryCommand runs every live command on every malformed
// DSN: exit 2, one fixed message, and no three characters of the password
// anywhere.
func TestMalformedDSNEveryCommand(t *testing.T) {
	dir := t.TempDir()
	commands := []struct {
		name string
		args func(dsn string) []string
	}{
		{"audit --dsn", func(dsn string) []string { return []string{"audit", "--dsn", dsn} }},
		{"audit --targets", func(dsn string) []string {
			file := filepath.Join(t.TempDir(), "targets.txt")
			os.WriteFile(file, []byte("# shards\n"+dsn+"\n"), 0o600)
			return []string{"audit", "--targets", file}
		}},
		{"audit $GUARD_DSN", func(dsn string) []string { t.Setenv(target.EnvDSN, dsn); return []string{"audit"} }},
		{"plan --dsn", func(dsn string) []string { return []string{"plan", "--dsn", dsn, "--out", filepath.Join(dir, "plan")} }},
		{"migrate up", func(dsn string) []string { return []string{"migrate", "up", "--dsn", dsn, "--dir", dir} }},
		{"migrate status", func(dsn string) []string { return []string{"migrate", "status", "--dsn", dsn, "--dir", dir} }},
		{"drill", func(dsn string) []string { return []string{"drill", "--dsn", dsn, "--table", "t_stock"} }},
		{"gen dao --dsn", func(dsn string) []string {
			return []string{"gen", "dao", "--dsn", dsn, "--table", "t_stock", "--out", filepath.Join(dir, "dao"), "--package", "dao"}
		}},
	}
	for _, cmd := range commands {
		for _, m := range malformedDSNs {
			t.Run(cmd.name+"/"+m.name, func(t *testing.T) {
				t.Setenv(target.EnvDSN, "")
				args := cmd.args(m.dsn)
				out, errOut, code := guard(t, args...)
				// The paths given are no secret, and their random digits
				// could match a numeric password.
				for _, a := range args {
					if strings.HasPrefix(a, os.TempDir()) {
						out, errOut = strings.ReplaceAll(out, a, "PATH.txt"), strings.ReplaceAll(errOut, a, "PATH.txt")
					}
				}
				checkDSNRefused(t, out, errOut, code, m.password)
			})
		}
	}
}

// TestMalformedRedisDrill is the same for the Redis address of guard drill.
func TestMalformedRedisDrill(t *testing.T) {
	for _, m := range []struct{ name, addr, password string }{
		{"raw / in password", "redis://:Zq9/vKw2x@127.0.0.1:6379/0", "Zq9/vKw2x"},
		{"raw ? in password", "rediss://:Zq9?vKw2x@127.0.0.1:6379/0", "Zq9?vKw2x"},
		{"raw # in password", "redis://:Zq9#vKw2x@127.0.0.1:6379/0", "Zq9#vKw2x"},
		{"bad percent-escape", "redis://:Zq9%zvKw2x@127.0.0.1:6379/0", "Zq9%zvKw2x"},
		{"database not a number", "redis://:Zq9vKw2x@127.0.0.1:6379/Kw2x", "Zq9vKw2x"},
		{"sentinel without master", "sentinel://:Zq9vKw2x@127.0.0.1:26379", "Zq9vKw2x"},
		{"unknown scheme", "memcache://:Zq9vKw2x@127.0.0.1:11211", "Zq9vKw2x"},
	} {
		t.Run(m.name, func(t *testing.T) {
			out, errOut, code := guard(t, "drill", "--dsn", "app:pw@tcp(127.0.0.1:1)/shop", "--table", "t_stock", "--redis", m.addr)
			checkDSNRefused(t, out, errOut, code, m.password)
			if !strings.HasPrefix(errOut, "guard: --redis: Redis address: ") {
				t.Errorf("stderr %q does not name --redis", errOut)
			}
		})
	}
}

func checkDSNRefused(t *testing.T, out, errOut string, code int, password string) {
	t.Helper()
	if code != exitInput {
		t.Errorf("exit %d, want %d", code, exitInput)
	}
	for name, s := range map[string]string{"stdout": out, "stderr": errOut} {
		if f := target.SecretFragment(s, password); f != "" {
			t.Errorf("%s shows %q of the password:\n%s", name, f, s)
		}
	}
	if out != "" {
		t.Errorf("stdout is not empty:\n%s", out)
	}
	if strings.Contains(errOut, target.RedactedText) {
		t.Errorf("stderr redacted a guess instead of describing the DSN: %q", errOut)
	}
	m := dsnMessage.FindStringSubmatch(errOut)
	if m == nil || !slices.Contains(target.Problems(), m[2]) {
		t.Errorf("stderr %q is not one line naming the source and one of the fixed problems", errOut)
	}
}

// TestDuplicateTargets: the same host:port/db twice, with two passwords, is
// refused before anything connects, naming the target and not a password.
func TestDuplicateTargets(t *testing.T) {
	t.Setenv(target.EnvDSN, "")
	file := filepath.Join(t.TempDir(), "shards.txt")
	os.WriteFile(file, []byte("app:Zq9vKw2x@tcp(127.0.0.1:1)/shop\napp:Xj4pLm7y@tcp(127.0.0.1:2)/shop\nmysql://app:Hb8tRn3w@127.0.0.1:1/shop\n"), 0o600)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"two --dsn", []string{"--dsn", "app:Zq9vKw2x@tcp(127.0.0.1:1)/shop", "--dsn", "mysql://app:Xj4pLm7y@127.0.0.1:1/shop"},
			"guard: target 127.0.0.1:1/shop is given twice (--dsn #1 and --dsn #2): give each database once\n"},
		{"targets file", []string{"--targets", file},
			"guard: target 127.0.0.1:1/shop is given twice (" + file + ":1 and " + file + ":3): give each database once\n"},
		{"--dsn and file", []string{"--dsn", "app:Vc6gQs9z@tcp(127.0.0.1:2)/shop", "--targets", file},
			"guard: target 127.0.0.1:2/shop is given twice (--dsn #1 and " + file + ":2): give each database once\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := guard(t, append([]string{"audit"}, tt.args...)...)
			if code != exitInput || errOut != tt.want || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d and %q", code, out, errOut, exitInput, tt.want)
			}
			for _, pw := range []string{"Zq9vKw2x", "Xj4pLm7y", "Hb8tRn3w", "Vc6gQs9z"} {
				if f := target.SecretFragment(out+errOut, pw); f != "" {
					t.Errorf("output shows %q of a password", f)
				}
			}
		})
	}
}
