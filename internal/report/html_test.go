package report

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// sampleFleet is an audit of three databases on two servers, one not
// reached: the findings of each database and one durability finding per
// server, shared by its databases.
func sampleFleet() (*lint.Result, Options) {
	res := &lint.Result{
		Findings: []lint.Finding{
			{Code: "GS003", Rule: "counter-without-check", Severity: policy.SevError, Target: "db1:3306/shop_1", Table: "t_stock", ColumnName: "qty",
				Message: "counter column t_stock.qty has no CHECK (qty >= 0)", Fix: "ALTER TABLE t_stock ADD CHECK (qty >= 0)"},
			{Code: "GS001", Rule: "strict-sql-mode", Severity: policy.SevWarning, Target: "db1:3306/shop_2",
				Message: "global sql_mode lacks STRICT_TRANS_TABLES", Fix: "SET PERSIST sql_mode = 'STRICT_TRANS_TABLES'"},
			{Code: "GS011", Rule: "commit-durability", Severity: policy.SevError, Target: "db1:3306", ColumnName: "innodb_flush_log_at_trx_commit",
				Message: "innodb_flush_log_at_trx_commit = 2: a crash of the host loses up to a second of commits", Fix: "SET PERSIST innodb_flush_log_at_trx_commit = 1",
				Settings: map[string]string{"innodb_flush_log_at_trx_commit": "2", "sync_binlog": "0"}, Databases: 2},
			{Code: "GS012", Rule: "failover-safety", Severity: policy.SevWarning, Target: "db1:3306", ColumnName: "binlog_format",
				Message: "binlog_format = STATEMENT", Settings: map[string]string{"binlog_format": "STATEMENT"}, Databases: 2},
		},
		Summary: lint.Summary{Error: 2, Warning: 2, Tables: 4},
	}
	opts := sampleOptions()
	opts.Rules = append(opts.Rules,
		RuleInfo{Code: "GS011", Name: "commit-durability", Doc: "A commit the server acknowledged must survive a crash.", PerServer: true},
		RuleInfo{Code: "GS012", Name: "failover-safety", Doc: "A replica promoted must hold every acknowledged commit.", PerServer: true})
	opts.Live = &Live{
		Audited:  2,
		Failures: []Failure{{Target: "db2:3306/shop_3", Error: "dial tcp db2:3306: connection refused"}},
		Targets: []LiveTarget{
			{Name: "db1:3306/shop_1", Server: "db1:3306", Version: "MariaDB 10.11.6"},
			{Name: "db1:3306/shop_2", Server: "db1:3306", Version: "MariaDB 10.11.6"},
			{Name: "db2:3306/shop_3", Server: "db2:3306"},
		},
	}
	opts.Generated = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	return res, opts
}

// sampleDryRun is a fleet's dry run: a blocking statement refused above
// the limit, a preflight failure, and a target not described.
func sampleDryRun() *DryRun {
	return &DryRun{Command: "up", ExitCode: 3, Targets: []DryRunTarget{
		{Target: "db1:3306/shop", From: "3", Server: "MariaDB 10.11.6", Limit: "1000000 rows", ExitCode: 3,
			Statements: []DryRunStatement{
				{File: "migrations/004_check.up.sql", Line: 1, Table: "t_stock", Algorithm: "COPY", Lock: "SHARED", Writes: "blocks writes", Blocks: true,
					Rows: "2000000", Size: "96.0 MiB", Preflight: "FAIL: blocks writes on 2000000 rows, above max_blocking_rows 1000000",
					Statement: "ALTER TABLE t_stock ADD CONSTRAINT chk CHECK (qty >= 0), ALGORITHM=COPY", Why: "ADD CHECK validates every row"},
				{File: "migrations/005_unique.up.sql", Line: 1, Table: "t_order", Algorithm: "INPLACE", Lock: "NONE", Writes: "no",
					Rows: "~120", Size: "16.0 KiB", Preflight: "FAIL: UNIQUE (order_no): 4 rows in 2 duplicate groups (order_no=A1 (2 rows))",
					Statement: "ALTER TABLE t_order ADD UNIQUE (order_no), ALGORITHM=INPLACE, LOCK=NONE"},
			},
			Refusals: []DryRunRefusal{{Code: 3, Message: "preflight: 4 rows would break UNIQUE (order_no)"}}},
		{Target: "db2:3306/shop", Error: "dial tcp db2:3306: connection refused", ExitCode: 3},
	}}
}

// TestHTMLGolden writes each kind of page from fixed data: a lint, an
// audit of a fleet, an empty run, a drill and a dry run.
func TestHTMLGolden(t *testing.T) {
	fleet, fleetOpts := sampleFleet()
	pages := map[string]func(*bytes.Buffer) error{
		"sample.html": func(b *bytes.Buffer) error { return Write(b, FormatHTML, sampleResult(), sampleOptions()) },
		"fleet.html":  func(b *bytes.Buffer) error { return Write(b, FormatHTML, fleet, fleetOpts) },
		"empty.html": func(b *bytes.Buffer) error {
			return Write(b, FormatHTML, &lint.Result{Summary: lint.Summary{Files: 1, Statements: 1, Tables: 1}}, sampleOptions())
		},
		"drill.html":  func(b *bytes.Buffer) error { return WriteDrillHTML(b, sampleDrill(), Options{Version: "1.2.3"}) },
		"dryrun.html": func(b *bytes.Buffer) error { return WriteDryRunHTML(b, sampleDryRun(), Options{Version: "1.2.3"}) },
	}
	for name, write := range pages {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := write(&buf); err != nil {
				t.Fatal(err)
			}
			selfContained(t, buf.String())
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/report -update)", err)
			}
			if diff := cmp.Diff(string(want), buf.String()); diff != "" {
				t.Errorf("%s mismatch (-golden +got):\n%s", golden, diff)
			}
		})
	}
}

// fetching matches what would make a browser fetch or run something: a
// script, a frame, an image, a style sheet or font from elsewhere, a link
// off the page.
var fetching = regexp.MustCompile(`(?i)<script|<link|<img|<iframe|<object|<embed|<base|\bsrc=|url\(|@import|href="[^#]|javascript:`)

// selfContained fails t on a page that would fetch or run anything.
func selfContained(t *testing.T, page string) {
	t.Helper()
	if m := fetching.FindString(page); m != "" {
		t.Errorf("the page holds %q: it must load and run nothing", m)
	}
	if !strings.Contains(page, `content="default-src 'none'; style-src 'unsafe-inline'"`) {
		t.Error("the page lacks its Content-Security-Policy")
	}
}

const hostile = `<script>alert(1)</script>`

// TestHTMLEscapesHostileInput puts markup in every text a report prints —
// file, SQL, message, fix, table, column, target, a server's error, a
// setting, a drill's notes and a dry run's statement — and expects it back
// as text, never as markup.
func TestHTMLEscapesHostileInput(t *testing.T) {
	f := lint.Finding{
		Code: "GQ002", Rule: hostile, Severity: policy.SevError, File: hostile + ".sql", Line: 1, EndLine: 2,
		Table: hostile, ColumnName: hostile, Message: hostile + " `" + hostile + "`", Fix: hostile, SQL: "UPDATE t SET c = c - 1 /* " + hostile + " */",
		Digest: hostile, FirstSeen: hostile,
	}
	live := f
	live.File, live.Target, live.Code = "", "db:3306/"+hostile, "GS011"
	live.Settings = map[string]string{hostile: hostile}
	res := &lint.Result{Findings: []lint.Finding{f, live}}
	opts := Options{Version: hostile, Rules: []RuleInfo{{Code: "GQ002", Name: hostile, Summary: hostile, Doc: "`" + hostile + "`", Fix: hostile},
		{Code: "GS011", PerServer: true, Doc: hostile}}}
	var pages []string
	for _, o := range []Options{opts, withLive(opts, hostile)} {
		var buf bytes.Buffer
		if err := Write(&buf, FormatHTML, res, o); err != nil {
			t.Fatal(err)
		}
		pages = append(pages, buf.String())
	}
	d := sampleDrill()
	d.Heading, d.Scratch, d.Notes, d.Failed = hostile, hostile, []string{hostile}, []string{hostile}
	d.Strategies[0].Name = hostile
	d.Strategies[4].Lock.Advice = hostile
	var buf bytes.Buffer
	if err := WriteDrillHTML(&buf, d, Options{Version: hostile}); err != nil {
		t.Fatal(err)
	}
	pages = append(pages, buf.String())
	dr := sampleDryRun()
	dr.Command = hostile
	dr.Targets[0].Target, dr.Targets[0].Statements[0].Statement, dr.Targets[0].Statements[0].File = hostile, hostile, hostile
	dr.Targets[0].Refusals[0].Message, dr.Targets[1].Error = hostile, hostile
	buf.Reset()
	if err := WriteDryRunHTML(&buf, dr, Options{Version: hostile}); err != nil {
		t.Fatal(err)
	}
	pages = append(pages, buf.String())
	for i, p := range pages {
		if strings.Contains(strings.ToLower(p), "<script") {
			t.Errorf("page %d holds a script element:\n%s", i, p)
		}
		if !strings.Contains(p, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("page %d lacks the hostile text, escaped", i)
		}
	}
}

func withLive(o Options, name string) Options {
	o.Live = &Live{Audited: 1, Failures: []Failure{{Target: name, Error: name}}, Targets: []LiveTarget{{Name: name, Server: name, Version: name}}}
	return o
}

func TestCodeSpans(t *testing.T) {
	tests := map[string][]htmlSpan{
		"":                {},
		"plain":           {{Text: "plain"}},
		"a `b` c":         {{Text: "a "}, {Text: "b", Code: true}, {Text: " c"}},
		"`x`":             {{Text: "x", Code: true}},
		"a `b` c `d":      {{Text: "a "}, {Text: "b", Code: true}, {Text: " c `d"}},
		"unpaired ` tick": {{Text: "unpaired ` tick"}},
	}
	for in, want := range tests {
		if got := codeSpans(in); !cmp.Equal(want, got, cmp.Comparer(func(a, b []htmlSpan) bool { return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b) })) {
			if len(want) != 0 || len(got) != 0 {
				t.Errorf("codeSpans(%q) = %+v, want %+v", in, got, want)
			}
		}
	}
}

// TestFleetView: a row per target, the failed first, then the worst; the
// findings of a server as a whole once, under the server, with the
// databases it holds.
func TestFleetView(t *testing.T) {
	res, opts := sampleFleet()
	perServer := map[string]bool{"GS011": true, "GS012": true}
	v := newFleetView(res.Findings, opts.Live, perServer)
	var rows []string
	for _, r := range v.Targets {
		rows = append(rows, r.Name)
	}
	if diff := cmp.Diff([]string{"db2:3306/shop_3", "db1:3306/shop_1", "db1:3306/shop_2"}, rows); diff != "" {
		t.Errorf("target rows (-want +got):\n%s", diff)
	}
	if r := v.Targets[1]; r.Error != 1 || r.Warning != 0 || r.Version != "MariaDB 10.11.6" {
		t.Errorf("shop_1: %+v, want 1 error on MariaDB 10.11.6 (the server's findings are the server's)", r)
	}
	if r := v.Targets[0]; !r.Failed || !strings.Contains(r.Reason, "refused") {
		t.Errorf("shop_3: %+v, want failed with its reason", r)
	}
	if len(v.Servers) != 1 || v.Servers[0].Server != "db1:3306" || v.Servers[0].Databases != 2 || len(v.Servers[0].Findings) != 2 ||
		!cmp.Equal(v.Servers[0].Targets, []string{"db1:3306/shop_1", "db1:3306/shop_2"}) || v.Servers[0].Worst != policy.SevError {
		t.Errorf("servers: %+v", v.Servers)
	}
	// Without the targets listed, the rows come from the findings and the
	// failures.
	bare := *opts.Live
	bare.Targets = nil
	if v := newFleetView(res.Findings, &bare, perServer); len(v.Targets) != 3 {
		t.Errorf("rows without Live.Targets: %+v", v.Targets)
	}
}
