package target

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	type want struct {
		Name, User, Pass, Net, Addr, DB string
		Params                          map[string]string
	}
	tests := []struct {
		dsn  string
		want want
	}{
		{
			dsn:  "app:s3cret@tcp(db1:3306)/shop",
			want: want{Name: "db1:3306/shop", User: "app", Pass: "s3cret", Net: "tcp", Addr: "db1:3306", DB: "shop"},
		},
		{
			dsn:  "app:p@ss:w/rd@tcp(10.0.0.7:3307)/shop?sql_mode=%27ANSI,STRICT_ALL_TABLES%27",
			want: want{Name: "10.0.0.7:3307/shop", User: "app", Pass: "p@ss:w/rd", Net: "tcp", Addr: "10.0.0.7:3307", DB: "shop", Params: map[string]string{"sql_mode": "'ANSI,STRICT_ALL_TABLES'"}},
		},
		{
			dsn:  "  root@tcp(db1)/shop  ",
			want: want{Name: "db1:3306/shop", User: "root", Net: "tcp", Addr: "db1:3306", DB: "shop"},
		},
		{
			dsn:  "mysql://app:s%40cr%3At%2F@db2:3310/orders?sql_mode=ANSI",
			want: want{Name: "db2:3310/orders", User: "app", Pass: "s@cr:t/", Net: "tcp", Addr: "db2:3310", DB: "orders", Params: map[string]string{"sql_mode": "ANSI"}},
		},
		{
			dsn:  "MySQL://us%20er:pw@db3/shop",
			want: want{Name: "db3:3306/shop", User: "us er", Pass: "pw", Net: "tcp", Addr: "db3:3306", DB: "shop"},
		},
		{
			dsn:  "app://s3cret@tcp(db1)/shop",
			want: want{Name: "db1:3306/shop", User: "app", Pass: "//s3cret", Net: "tcp", Addr: "db1:3306", DB: "shop"},
		},
		{
			dsn:  "app:a%41b@tcp(db1)/sh%6Fp",
			want: want{Name: "db1:3306/shop", User: "app", Pass: "a%41b", Net: "tcp", Addr: "db1:3306", DB: "shop"},
		},
		{
			dsn:  "app:s3cret@unix(/run/mysqld/mysqld.sock)/shop",
			want: want{Name: "/run/mysqld/mysqld.sock/shop", User: "app", Pass: "s3cret", Net: "unix", Addr: "/run/mysqld/mysqld.sock", DB: "shop"},
		},
		{
			dsn:  "app:s3cret@/shop",
			want: want{Name: "127.0.0.1:3306/shop", User: "app", Pass: "s3cret", Net: "tcp", Addr: "127.0.0.1:3306", DB: "shop"},
		},
		{
			dsn:  "mariadb://app@[::1]:3306/shop",
			want: want{Name: "[::1]:3306/shop", User: "app", Net: "tcp", Addr: "[::1]:3306", DB: "shop"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.dsn, func(t *testing.T) {
			tg, err := Parse(tt.dsn)
			if err != nil {
				t.Fatal(err)
			}
			cfg := tg.Config()
			got := want{Name: tg.Name(), User: cfg.User, Pass: cfg.Passwd, Net: cfg.Net, Addr: cfg.Addr, DB: cfg.DBName, Params: cfg.Params}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if cfg.Timeout != DialTimeout || cfg.ReadTimeout != IOTimeout || cfg.WriteTimeout != IOTimeout || !cfg.ParseTime || cfg.MultiStatements {
				t.Errorf("guard's settings not enforced: timeout=%s read=%s write=%s parseTime=%v multi=%v",
					cfg.Timeout, cfg.ReadTimeout, cfg.WriteTimeout, cfg.ParseTime, cfg.MultiStatements)
			}
			if tt.want.Pass != "" && strings.Contains(tg.Name()+tg.String(), tt.want.Pass) {
				t.Errorf("name %q shows the password", tg.Name())
			}
		})
	}
}

func TestParseKeepsShorterTimeouts(t *testing.T) {
	tg, err := Parse("u:p@tcp(h:1)/d?timeout=1s&readTimeout=2s&writeTimeout=3s&multiStatements=true")
	if err != nil {
		t.Fatal(err)
	}
	cfg := tg.Config()
	got := []time.Duration{cfg.Timeout, cfg.ReadTimeout, cfg.WriteTimeout}
	if d := cmp.Diff([]time.Duration{time.Second, 2 * time.Second, 3 * time.Second}, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if cfg.MultiStatements {
		t.Error("multiStatements left on")
	}
	tg, err = Parse("u:p@tcp(h:1)/d?timeout=1h")
	if err != nil {
		t.Fatal(err)
	}
	if tg.Config().Timeout != DialTimeout {
		t.Errorf("timeout=1h kept: %s", tg.Config().Timeout)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		dsn, want string
		secret    string // no 3 characters of it may appear in the error
	}{
		{dsn: "", want: "DSN: empty (at offset 0)"},
		{dsn: "app:p@ss:w/rd%41?x@tcp(127.0.0.1:3306)", want: `DSN: no "/dbname" after the address (at offset 38)`, secret: "p@ss:w/rd%41?x"},
		{dsn: "app:zq9Kw2x@tcp(db1:3306)/", want: `no database name after "/" (at offset 26)`, secret: "zq9Kw2x"},
		{dsn: "app:zq9Kw2x@tcp(db1:3306)", want: `no "/dbname" after the address (at offset 25)`, secret: "zq9Kw2x"},
		{dsn: "app:zq9Kw2x@tcp(db1:3306", want: `"(" of the address is not closed by ")" before "/dbname" (at offset 15)`, secret: "zq9Kw2x"},
		{dsn: "app:zq9/Kw2x@tcp(db1:3306", want: `"(" of the address is not closed`, secret: "zq9/Kw2x"},
		{dsn: "app:zq9Kw2x@db1", want: `no "/dbname" (want`, secret: "zq9Kw2x"},
		{dsn: "app:zq9Kw2x@db1/shop", want: "the address is not tcp(host:port) or unix(path) (at offset 12)", secret: "zq9Kw2x"},
		{dsn: "app:zq9?Kw2x@tcp(db1:3306)", want: `no "/dbname" after the address`, secret: "zq9?Kw2x"},
		{dsn: "app:zq@9Kw2x@tcp(db1:3306)", want: `no "/dbname" after the address`, secret: "zq@9Kw2x"},
		{dsn: "app:zq:9Kw2x@tcp(db1:3306)", want: `no "/dbname" after the address`, secret: "zq:9Kw2x"},
		{dsn: "app:zq%9Kw2x@tcp(db1:3306)", want: `no "/dbname" after the address`, secret: "zq%9Kw2x"},
		{dsn: "app:x/y@tcp(h:1)/z@tcp(db1:3306)", want: `no "/dbname" after the address`, secret: "x/y@tcp(h:1)/z"},
		{dsn: "app:zq9Kw2x@tcp(db1)/shop?parseTime=maybe", want: "invalid parameter value (at offset 36)", secret: "zq9Kw2x"},
		{dsn: "app:zq9Kw2x@tcp(db1)/sh%zzop", want: "bad percent-escape in the database name (at offset 23)", secret: "zq9Kw2x"},
		{dsn: "app:zq9Kw2x@tcp(db1)/shop?loc=Asia/Shanghai", want: `a "/" in the database name or the parameters must be percent-encoded`, secret: "zq9Kw2x"},
		{dsn: "  app:zq9Kw2x@tcp(db1:3306)", want: "(at offset 27)", secret: "zq9Kw2x"},
		{dsn: "app:pässwörd@tcp(db1:3306)", want: "(at offset 26)", secret: "pässwörd"},
		{dsn: "mysql://app:zq9Kw2x@db1:3306", want: `no "/dbname" after the address (at offset 28)`, secret: "zq9Kw2x"},
		{dsn: "mysql://app:zq9Kw2x@db1:3306/", want: `no "/dbname" after the address`, secret: "zq9Kw2x"},
		{dsn: "mysql://app:zq9/Kw2x@db1:3306/shop", want: `a "/", "?" or "#" in the user or password must be percent-encoded (%2F, %3F, %23) (at offset 15)`, secret: "zq9/Kw2x"},
		{dsn: "mysql://app:zq9?Kw2x@db1/shop", want: `must be percent-encoded`, secret: "zq9?Kw2x"},
		{dsn: "mysql://app:12/34@db1/shop", want: `must be percent-encoded`, secret: "12/34"},
		{dsn: "mysql://app:zq9#Kw2x@db1/shop", want: "must be percent-encoded", secret: "zq9#Kw2x"},
		{dsn: "mysql://app:zq9%zKw2x@db1/shop", want: "bad percent-escape in the password (at offset 15)", secret: "zq9%zKw2x"},
		{dsn: "mysql://app:zq9Kw2x%@db1/shop", want: "bad percent-escape in the password", secret: "zq9Kw2x%"},
		{dsn: "mysql://a%g:zq9Kw2x@db1/shop", want: "bad percent-escape in the user", secret: "zq9Kw2x"},
		{dsn: "mysql://app:zq9Kw2x@db1:x/shop", want: "the port is not a number from 1 to 65535 (at offset 24)", secret: "zq9Kw2x"},
		{dsn: "mysql://app:zq9Kw2x@db1/a/b", want: `"/" in the database name`, secret: "zq9Kw2x"},
		{dsn: "mysql://app:zq9Kw2x@db1/shop#x", want: `"#" starts a URL fragment`, secret: "zq9Kw2x"},
		{dsn: "mysql://app:zq9Kw2x@/shop", want: "no host", secret: "zq9Kw2x"},
		{dsn: "postgres://app:zq9Kw2x@db1/shop", want: "unsupported scheme (want mysql://", secret: "zq9Kw2x"},
		{dsn: "mysql:///shop", want: "no host"},
		{dsn: "mysql://app:zq9Kw2x@db1/shop?timeout=forever", want: "invalid parameter value", secret: "zq9Kw2x"},
	}
	for _, tt := range tests {
		t.Run(tt.dsn, func(t *testing.T) {
			_, err := Parse(tt.dsn)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
			if frag := SecretFragment(err.Error(), tt.secret); frag != "" {
				t.Errorf("error %q shows %q of the password", err, frag)
			}
			var perr *ParseError
			if !errors.As(err, &perr) || !slices.Contains(Problems(), perr.Problem) {
				t.Errorf("error %q is not one of the fixed problems", err)
			}
		})
	}
	for _, dsn := range []string{"app:pw@tcp(db1:3306)/", "app:pw@tcp(db1:3306)", "mysql://app:pw@db1"} {
		if _, err := Parse(dsn); !errors.Is(err, ErrNoDatabase) {
			t.Errorf("%s: error %v is not ErrNoDatabase", dsn, err)
		}
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "targets.txt")
	os.WriteFile(good, []byte("\ufeff# shards\n\napp:pw1@tcp(s1:3306)/shop   # shard 1\n  mysql://app:pw2@s2/shop\t# shard 2\n# app:pw3@tcp(s3:3306)/shop\napp:p#w4@tcp(s4:3306)/shop#x\n  # indented\n"), 0o600)
	ts, err := ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tg := range ts {
		names = append(names, tg.Name())
	}
	if d := cmp.Diff([]string{"s1:3306/shop", "s2:3306/shop", "s4:3306/shop#x"}, names); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}

	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("app:pw1@tcp(s1:3306)/shop\n\napp:pw9@tcp(s2:3306)/\n"), 0o600)
	_, err = ReadFile(bad)
	if err == nil || !strings.HasPrefix(err.Error(), bad+":3: ") || strings.Contains(err.Error(), "pw9") {
		t.Errorf("error = %v, want %s:3: without the password", err, bad)
	}

	empty := filepath.Join(dir, "empty.txt")
	os.WriteFile(empty, []byte("# nothing\n\n"), 0o600)
	if _, err := ReadFile(empty); err == nil || !strings.Contains(err.Error(), "no DSN") {
		t.Errorf("empty file: error = %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.txt")); err == nil || !strings.Contains(err.Error(), "missing.txt: no such file") {
		t.Errorf("missing file: error = %v", err)
	}
}

func TestCollect(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "t.txt")
	os.WriteFile(file, []byte("app:other@tcp(a:9)/x\nb:pw@tcp(c:3)/z\n"), 0o600)
	dup := filepath.Join(dir, "dup.txt")
	os.WriteFile(dup, []byte("# shard a\napp:first@tcp(a:1)/x\n\napp:second@tcp(a:1)/x\n"), 0o600)
	tests := []struct {
		name    string
		src     Sources
		want    []string
		wantErr string
	}{
		{name: "flags and file, env ignored", src: Sources{DSNs: []string{"u:p@tcp(a:1)/x", "u:p@tcp(b:2)/y"}, TargetsFile: file, Env: "e:e@tcp(e:9)/e"},
			want: []string{"a:1/x", "b:2/y", "a:9/x", "c:3/z"}},
		{name: "env alone", src: Sources{Env: " mysql://e:e@e:9/e "}, want: []string{"e:9/e"}},
		{name: "nothing", src: Sources{}, wantErr: "no target"},
		{name: "bad flag", src: Sources{DSNs: []string{"u:p@tcp(a:1)/x", "u:secret@tcp(b)/"}}, wantErr: `--dsn #2: DSN: no database name after "/"`},
		{name: "bad env", src: Sources{Env: "u:secret@tcp(b)/"}, wantErr: EnvDSN + ": DSN: "},
		{name: "same target twice on the command line, other password", src: Sources{DSNs: []string{"u:secret@tcp(a:1)/x", "mysql://u:other@a:1/x"}},
			wantErr: "target a:1/x is given twice (--dsn #1 and --dsn #2): give each database once"},
		{name: "same target twice in a file", src: Sources{TargetsFile: dup}, wantErr: "target a:1/x is given twice (" + dup + ":2 and " + dup + ":4)"},
		{name: "flag and file", src: Sources{DSNs: []string{"u:secret@tcp(c:3)/z"}, TargetsFile: file}, wantErr: "target c:3/z is given twice (--dsn #1 and " + file + ":2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, err := Collect(tt.src)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || SecretFragment(err.Error(), "secret") != "" {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tg := range ts {
				names = append(names, tg.Name())
			}
			if d := cmp.Diff(tt.want, names); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestOne(t *testing.T) {
	if tg, err := One("", "u:p@tcp(e:1)/d"); err != nil || tg.Name() != "e:1/d" {
		t.Errorf("env: %v, %v", tg, err)
	}
	if tg, err := One("u:p@tcp(f:1)/d", "u:p@tcp(e:1)/d"); err != nil || tg.Name() != "f:1/d" {
		t.Errorf("flag over env: %v, %v", tg, err)
	}
	if _, err := One("", " "); !errors.Is(err, ErrNoTarget) {
		t.Errorf("nothing: %v", err)
	}
	if _, err := One("", "u:secret@tcp(e:1)"); err == nil || !strings.HasPrefix(err.Error(), EnvDSN+": DSN: ") {
		t.Errorf("bad env: %v", err)
	}
}

func TestRedactor(t *testing.T) {
	a, _ := Parse("mysql://u:p%40ss%2Fword@h/d")
	b, _ := Parse("u:p@ss@tcp(h:1)/d")
	c, _ := Parse("u:pa@tcp(h:1)/d")
	r := NewRedactor(a, b, c)
	tests := []struct{ in, want string }{
		{"dial u:p@ss/word@tcp(h)", "dial u:[redacted]@tcp(h)"},
		{"url mysql://u:p%40ss%2Fword@h/d", "url mysql://u:[redacted]@h/d"},
		{"short p@ss", "short [redacted]"},
		{"cannot parse DSN: pa", "cannot parse DSN: [redacted]"},
		{"u:pa@tcp", "u:[redacted]@tcp"},
		{"nothing here", "nothing here"},
	}
	for _, tt := range tests {
		if got := r.Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	var sb strings.Builder
	w := r.Writer(&sb)
	if n, err := w.Write([]byte("x p@ss y\n")); err != nil || n != 9 {
		t.Errorf("Write = %d, %v", n, err)
	}
	if sb.String() != "x [redacted] y\n" {
		t.Errorf("writer wrote %q", sb.String())
	}
	if got := (*Redactor)(nil).Redact("p@ss"); got != "p@ss" {
		t.Errorf("nil redactor changed %q", got)
	}
	// A long password is redacted wherever it is, even inside a word.
	d, _ := Parse("u:zq9Kw2x2@tcp(h:1)/d")
	if got := NewRedactor(d).Redact("xzq9Kw2x2x"); got != "x[redacted]x" {
		t.Errorf("long password: %q", got)
	}
}

func TestParseRedis(t *testing.T) {
	tests := []struct{ addr, name, secret string }{
		{"127.0.0.1:6379", "127.0.0.1:6379/0", ""},
		{":6379", ":6379/0", ""},
		{"redis://cache:6380/2", "cache:6380/2", ""},
		{"redis://:s%2Fcret@cache/1", "cache:6379/1", "s/cret"},
		{"rediss://user:pw1234@cache:6390", "cache:6390/0", "pw1234"},
		{"sentinel://:pw1234@s1:26379,s2:26379/mymaster", "sentinel s1:26379,s2:26379/mymaster", "pw1234"},
	}
	for _, tt := range tests {
		r, err := ParseRedis(tt.addr)
		if err != nil {
			t.Errorf("%s: %v", tt.addr, err)
			continue
		}
		if r.Name() != tt.name || r.password != tt.secret {
			t.Errorf("%s: name %q password %q, want %q %q", tt.addr, r.Name(), r.password, tt.name, tt.secret)
		}
		if tt.secret != "" && NewRedactor(r).Redact(tt.addr) == tt.addr {
			t.Errorf("%s: redactor leaves the password", tt.addr)
		}
	}
	bad := []struct{ addr, want, secret string }{
		{"cache", "Redis address: want host:port", ""},
		{"cache:http", "Redis address: want host:port", ""},
		{"se@cret:6379", "Redis address: want host:port", "se@cret"},
		{"redis://:se/cret@cache:6379/0", `Redis address: a "/", "?" or "#" in the user or password must be percent-encoded`, "se/cret"},
		{"redis://:se%zcret@cache/0", "bad percent-escape in the password", "se%zcret"},
		{"redis://:secret@cache/x", "the database is not a number", "secret"},
		{"sentinel://:secret@s1:26379", `no master name after "/"`, "secret"},
		{"sentinel://:secret@s1:26379,s2/m", "invalid host", "secret"},
		{"memcache://:secret@h:1", "want host:port", "secret"},
	}
	for _, tt := range bad {
		_, err := ParseRedis(tt.addr)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.addr, err, tt.want)
		} else if f := SecretFragment(err.Error(), tt.secret); f != "" {
			t.Errorf("%s: error %q shows %q", tt.addr, err, f)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"app:s3cret@tcp(db1:3306)/shop", "mysql://app:s%40cret@db2:3310/orders?sql_mode=ANSI",
		"u:p@tcp(h:1)/d?timeout=1s", "mysql://[::1]:x/", "a:b@c@d(e)/f?g=h&i", "mariadb://%zz@h/d", "://", "@/", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dsn string) {
		tg, err := Parse(dsn)
		if err != nil {
			checkFixed(t, err)
			return
		}
		cfg := tg.Config()
		if cfg.DBName == "" {
			t.Fatal("target without a database")
		}
		if tg.Name() != cfg.Addr+"/"+cfg.DBName {
			t.Fatalf("name %q is not host:port/db", tg.Name())
		}
		if got := NewRedactor(tg).Redact(dsn); len(cfg.Passwd) >= shortSecret && strings.Contains(got, cfg.Passwd) {
			t.Fatalf("redacted DSN %q still holds the password", got)
		}
	})
}

// checkFixed fails t unless err is a ParseError made of fixed text only.
func checkFixed(t *testing.T, err error) {
	t.Helper()
	var perr *ParseError
	if !errors.As(err, &perr) || !slices.Contains(Problems(), perr.Problem) {
		t.Fatalf("error %q is not one of the fixed problems", err)
	}
}

// vocabulary is every text an error of Parse or ParseRedis is made of, at
// offset 0: a piece of a password found in it is a coincidence of words,
// not a leak.
var vocabulary = func() string {
	var b strings.Builder
	for _, p := range Problems() {
		b.WriteString((&ParseError{Problem: p}).Error() + "\n")
		b.WriteString((&ParseError{Problem: p, redis: true}).Error() + "\n")
	}
	return b.String()
}()

var offsetText = regexp.MustCompile(`\(at offset [0-9]+\)`)

// leak returns a 3-character piece of secret in msg that neither the fixed
// words nor allowed (the parts of the DSN that are no secret) explain.
func leak(msg, secret, allowed string) string {
	msg = offsetText.ReplaceAllString(msg, "(at offset 0)")
	r := []rune(secret)
	for i := 0; i+3 <= len(r); i++ {
		g := string(r[i : i+3])
		if strings.Contains(msg, g) && !strings.Contains(vocabulary, g) && !strings.Contains(allowed, g) {
			return g
		}
	}
	return ""
}

// FuzzDescribe embeds a password in DSNs and Redis addresses of every shape,
// well formed or not, and checks that no piece of it reaches an error or
// the name of a target.
func FuzzDescribe(f *testing.F) {
	f.Add("app", "p@ss:w/rd%41?x", "127.0.0.1", "shop", uint8(1))
	f.Add("app", "zq9/Kw2x", "db1", "shop", uint8(3))
	f.Add("app", "zq9%zKw2x", "db1", "shop", uint8(4))
	f.Add("app", "zq9(Kw2x", "db1", "shop", uint8(2))
	f.Add("", "zq9?Kw#2x", "db1", "", uint8(7))
	f.Fuzz(func(t *testing.T, user, pass, host, db string, shape uint8) {
		if strings.ContainsAny(user, ":@/()?#%") || strings.ContainsAny(host, ":@/()?#%[], ") || strings.ContainsAny(db, "@/()?#%") {
			t.Skip()
		}
		var dsn string
		redisAddr := false
		switch shape % 9 {
		case 0:
			dsn = user + ":" + pass + "@tcp(" + host + ":3306)/" + db
		case 1:
			dsn = user + ":" + pass + "@tcp(" + host + ":3306)"
		case 2:
			dsn = user + ":" + pass + "@tcp(" + host + ":3306/" + db
		case 3:
			dsn = "mysql://" + user + ":" + pass + "@" + host + ":3306/" + db
		case 4:
			dsn = "mysql://" + user + ":" + url.PathEscape(pass) + "@" + host + ":3306/" + db
		case 5:
			dsn = "mysql://" + user + ":" + pass + "@" + host + ":3306"
		case 6:
			dsn = user + ":" + pass + "@" + host + "/" + db
		case 7:
			dsn, redisAddr = "redis://:"+pass+"@"+host+":6379/"+db, true
		case 8:
			dsn, redisAddr = "sentinel://:"+pass+"@"+host+":26379/"+db, true
		}
		allowed := user + "\n" + host + ":3306/" + db + "\n" + host + ":6379/" + db + "\n127.0.0.1:3306/" + db + "\nsentinel " + host + ":26379/" + db
		var name string
		var err error
		if redisAddr {
			var r *Redis
			if r, err = ParseRedis(dsn); err == nil {
				name = r.Name()
			}
		} else {
			var tg *Target
			if tg, err = Parse(dsn); err == nil {
				name = tg.Name()
			}
		}
		if err != nil {
			checkFixed(t, err)
			if g := leak(err.Error(), pass, allowed); g != "" {
				t.Fatalf("error %q shows %q of the password", err, g)
			}
			return
		}
		if g := leak(name, pass, allowed); g != "" {
			t.Fatalf("name %q shows %q of the password", name, g)
		}
	})
}

func FuzzParseTargets(f *testing.F) {
	f.Add([]byte("# shards\n\napp:pw1@tcp(s1:3306)/shop\nmysql://app:pw2@s2/shop\n"))
	f.Add([]byte("\ufeffu:p@tcp(h:1)/\n"))
	f.Add([]byte("mysql://u:%zz@h/d\r\n#\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, _, err := parseTargets("t.txt", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "t.txt") && !strings.HasPrefix(err.Error(), "targets file t.txt") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if len(ts) == 0 {
			t.Fatal("no targets and no error")
		}
		for _, tg := range ts {
			if tg.Database() == "" {
				t.Fatalf("target %s without a database", tg.Name())
			}
		}
	})
}
