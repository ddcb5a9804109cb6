package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseDSN(t *testing.T) {
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
			dsn:  "mariadb://app@[::1]:3306/shop",
			want: want{Name: "[::1]:3306/shop", User: "app", Net: "tcp", Addr: "[::1]:3306", DB: "shop"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.dsn, func(t *testing.T) {
			tg, err := ParseDSN(tt.dsn)
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

func TestParseDSNKeepsShorterTimeouts(t *testing.T) {
	tg, err := ParseDSN("u:p@tcp(h:1)/d?timeout=1s&readTimeout=2s&writeTimeout=3s&multiStatements=true")
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
	tg, err = ParseDSN("u:p@tcp(h:1)/d?timeout=1h")
	if err != nil {
		t.Fatal(err)
	}
	if tg.Config().Timeout != DialTimeout {
		t.Errorf("timeout=1h kept: %s", tg.Config().Timeout)
	}
}

func TestParseDSNErrors(t *testing.T) {
	tests := []struct {
		dsn, want string
		secret    string // must not appear in the error
	}{
		{dsn: "", want: "empty DSN"},
		{dsn: "app:hunter2@tcp(db1:3306)/", want: "names no database", secret: "hunter2"},
		{dsn: "mysql://app:hunter2@db1:3306", want: "names no database", secret: "hunter2"},
		{dsn: "mysql://app:hunter2@db1:3306/", want: "names no database", secret: "hunter2"},
		{dsn: "app:hunter2@tcp(db1:3306", want: "invalid DSN", secret: "hunter2"},
		{dsn: "app:hunter2@db1", want: "invalid DSN", secret: "hunter2"},
		{dsn: "app:hunter2@tcp(db1)/shop?parseTime=maybe", want: "invalid bool value", secret: "hunter2"},
		{dsn: "mysql://app:hun/ter2@db1:x/shop", want: "malformed URL", secret: "hun/ter2"},
		{dsn: "mysql://app:hunter2@db1/a/b", want: "contains a slash", secret: "hunter2"},
		{dsn: "mysql://app:hun#ter2@db1/shop", want: "malformed URL", secret: "hun#ter2"},
		{dsn: "mysql://app:hunter2@db1/shop#x", want: "#fragment", secret: "hunter2"},
		{dsn: "postgres://app:hunter2@db1/shop", want: `unsupported DSN scheme "postgres"`, secret: "hunter2"},
		{dsn: "mysql:///shop", want: "no host"},
		{dsn: "mysql://app:hunter2@db1/shop?timeout=forever", want: "parameters", secret: "hunter2"},
	}
	for _, tt := range tests {
		t.Run(tt.dsn, func(t *testing.T) {
			_, err := ParseDSN(tt.dsn)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
			if tt.secret != "" && strings.Contains(err.Error(), tt.secret) {
				t.Errorf("error %q shows the password", err)
			}
		})
	}
}

func TestReadTargets(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "targets.txt")
	os.WriteFile(good, []byte("\ufeff# shards\n\napp:pw1@tcp(s1:3306)/shop\n  mysql://app:pw2@s2/shop  \n# app:pw3@tcp(s3:3306)/shop\n"), 0o600)
	ts, err := ReadTargets(good)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tg := range ts {
		names = append(names, tg.Name())
	}
	if d := cmp.Diff([]string{"s1:3306/shop", "s2:3306/shop"}, names); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}

	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("app:pw1@tcp(s1:3306)/shop\n\napp:pw9@tcp(s2:3306)/\n"), 0o600)
	_, err = ReadTargets(bad)
	if err == nil || !strings.HasPrefix(err.Error(), bad+":3: ") || strings.Contains(err.Error(), "pw9") {
		t.Errorf("error = %v, want %s:3: without the password", err, bad)
	}

	empty := filepath.Join(dir, "empty.txt")
	os.WriteFile(empty, []byte("# nothing\n\n"), 0o600)
	if _, err := ReadTargets(empty); err == nil || !strings.Contains(err.Error(), "no DSN") {
		t.Errorf("empty file: error = %v", err)
	}
	if _, err := ReadTargets(filepath.Join(dir, "missing.txt")); err == nil || !strings.Contains(err.Error(), "missing.txt: no such file") {
		t.Errorf("missing file: error = %v", err)
	}
}

func TestCollect(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "t.txt")
	os.WriteFile(file, []byte("app:other@tcp(a:1)/x\nb:pw@tcp(c:3)/z\n"), 0o600)
	tests := []struct {
		name    string
		src     Sources
		want    []string
		wantErr string
	}{
		{name: "flags and file, repeats dropped", src: Sources{DSNs: []string{"u:p@tcp(a:1)/x", "u:p@tcp(b:2)/y"}, TargetsFile: file, Env: "e:e@tcp(e:9)/e"},
			want: []string{"a:1/x", "b:2/y", "c:3/z"}},
		{name: "env alone", src: Sources{Env: " mysql://e:e@e:9/e "}, want: []string{"e:9/e"}},
		{name: "nothing", src: Sources{}, wantErr: "no target"},
		{name: "bad flag", src: Sources{DSNs: []string{"u:p@tcp(a:1)/x", "u:secret@tcp(b)/"}}, wantErr: "--dsn #2: "},
		{name: "bad env", src: Sources{Env: "u:secret@tcp(b)/"}, wantErr: EnvDSN + ": "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, err := Collect(tt.src)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "secret") {
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
	// The password of a dropped repeat is still redacted.
	ts, err := Collect(Sources{DSNs: []string{"u:p@tcp(a:1)/x"}, TargetsFile: file})
	if err != nil {
		t.Fatal(err)
	}
	if got := NewRedactor(ts).Redact("other p pw"); got != "[redacted] [redacted] [redacted]" {
		t.Errorf("redacted = %q", got)
	}
}

func TestRedactor(t *testing.T) {
	a, _ := ParseDSN("mysql://u:p%40ss%2Fword@h/d")
	b, _ := ParseDSN("u:p@ss@tcp(h:1)/d")
	r := NewRedactor([]*Target{a, b})
	tests := []struct{ in, want string }{
		{"dial u:p@ss/word@tcp(h)", "dial u:[redacted]@tcp(h)"},
		{"url mysql://u:p%40ss%2Fword@h/d", "url mysql://u:[redacted]@h/d"},
		{"short p@ss", "short [redacted]"},
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
}

func FuzzParseDSN(f *testing.F) {
	for _, s := range []string{
		"app:s3cret@tcp(db1:3306)/shop", "mysql://app:s%40cret@db2:3310/orders?sql_mode=ANSI",
		"u:p@tcp(h:1)/d?timeout=1s", "mysql://[::1]:x/", "a:b@c@d(e)/f?g=h&i", "mariadb://%zz@h/d", "://", "@/", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dsn string) {
		tg, err := ParseDSN(dsn)
		if err != nil {
			for _, s := range looseSecrets(dsn) {
				if len(s) >= 4 && strings.Contains(err.Error(), s) {
					t.Fatalf("error %q shows %q", err, s)
				}
			}
			return
		}
		cfg := tg.Config()
		if cfg.DBName == "" {
			t.Fatal("target without a database")
		}
		if tg.Name() != cfg.Addr+"/"+cfg.DBName {
			t.Fatalf("name %q is not host:port/db", tg.Name())
		}
		got := NewRedactor([]*Target{tg}).Redact("x" + cfg.Passwd + "x")
		if cfg.Passwd != "" && !strings.Contains(redactedText, cfg.Passwd) && strings.Contains(got, cfg.Passwd) {
			t.Fatalf("redacted %q still holds the password", got)
		}
	})
}

func FuzzParseTargets(f *testing.F) {
	f.Add([]byte("# shards\n\napp:pw1@tcp(s1:3306)/shop\nmysql://app:pw2@s2/shop\n"))
	f.Add([]byte("\ufeffu:p@tcp(h:1)/\n"))
	f.Add([]byte("mysql://u:%zz@h/d\r\n#\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, err := parseTargets("t.txt", data)
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
