package policy

import (
	"errors"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const referencePath = "../../policies.toml"

// TestReferencePolicyLoads keeps the root policies.toml a faithful reference:
// it loads, it holds the built-in defaults, and it names every key.
func TestReferencePolicyLoads(t *testing.T) {
	got, err := Load(referencePath)
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.File = referencePath
	want.Rules.GQ007 = SevWarning
	if d := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Policy{})); d != "" {
		t.Errorf("reference policy differs from the defaults (-want +got):\n%s", d)
	}

	text, err := os.ReadFile(referencePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range tomlKeys(reflect.TypeOf(Policy{})) {
		re := regexp.MustCompile(`(?m)^#?\s*(` + regexp.QuoteMeta(key) + `\s*=|\[\[?` + regexp.QuoteMeta(key) + `\]\]?)`)
		if !re.Match(text) {
			t.Errorf("key %q is not documented in %s", key, referencePath)
		}
	}
	for _, code := range Codes() {
		if !regexp.MustCompile(`(?m)^#?\s*` + code + `\s*=\s*"(error|warning|info)"\s*#\s*[a-z-]+: `).Match(text) {
			t.Errorf("rule %s has no `%s = \"severity\"  # name: ...` line in [rules]", code, code)
		}
	}
}

// tomlKeys lists the toml names of the fields of a struct type, nested
// structs and slices of structs included.
func tomlKeys(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "" || name == "-" {
			continue
		}
		out = append(out, name)
		ft := f.Type
		if ft.Kind() == reflect.Slice {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct && ft != reflect.TypeOf(Duration{}) {
			out = append(out, tomlKeys(ft)...)
		}
	}
	return out
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string
	}{
		{"unknown key", "version = 1\n[schema]\ncounters = [\"x\"]\n", `policies.toml:3:1: unknown key "schema.counters"`},
		{"unknown table key", "version = 1\n[[table]]\nname = \"t\"\nbogus = 1\n", `policies.toml:4:1: unknown key "table.bogus"`},
		{"unknown rule code", "version = 1\n[rules]\nGQ099 = \"error\"\n", `policies.toml:3:1: unknown key "rules.GQ099"`},
		{"unknown section", "version = 1\n\n[servers]\nx = 1\n", `policies.toml:3:2: unknown key "servers"`},
		{"wrong type string for int", "version = 1\n\n[schema]\nversion_column = 5\n", "policies.toml:4:18: cannot decode TOML integer"},
		{"wrong type string for bool", "[schema]\nrequire_version = \"yes\"\n", "policies.toml:2:19: cannot decode TOML string"},
		{"wrong type string for list", "version = 1\n[lint]\npaths = \"x\"\n", "policies.toml:3:9: cannot decode TOML string"},
		{"bad severity", "version = 1\n[rules]\n  GQ007 = \"loud\"\n", `policies.toml:3:3: rules.GQ007: invalid severity "loud"`},
		{"bad severity after a comment naming it", "version = 1\n[rules]\n# GS003 = \"error\"\nGS003 = \"fatal\"\n", `policies.toml:4:1: rules.GS003: invalid severity "fatal"`},
		{"bad duration", "version = 1\n[lock]\nttl = \"3 seconds\"\n", `policies.toml:3:7: invalid duration "3 seconds"`},
		{"negative duration", "version = 1\n[lock]\nwait = \"-1s\"\n", `policies.toml:3:8: duration "-1s" must be positive`},
		{"version", "version = 2\n", "policies.toml:1:1: unsupported policy version 2 (want 1)"},
		{"empty version column", "version = 1\n[schema]\nversion_column = \"\"\n", "policies.toml:3:1: version_column must not be empty"},
		{"bad glob", "version = 1\n[schema]\ncounter_columns = [\"a[\"]\n", `policies.toml:3:21: invalid glob "a["`},
		{"table without name", "version = 1\n[[table]]\nunique = [[\"a\"]]\n", "policies.toml:2:1: [[table]] entry without name"},
		{"empty unique set", "version = 1\n[[table]]\nname = \"t\"\nunique = [[]]\n", `policies.toml:4:1: table "t": empty unique column set`},
		{"max attempts", "version = 1\n[lock]\nmax_attempts = 0\n", "policies.toml:3:1: max_attempts must be at least 1"},
		{"backoff order", "version = 1\n[lock]\nbackoff_min = \"1s\"\n", "policies.toml:3:1: backoff_min must not exceed backoff_max"},
		{"max blocking rows type", "version = 1\n[migrate]\nmax_blocking_rows = \"100k\"\n", "policies.toml:3:21: cannot decode TOML string"},
		{"max blocking rows float", "version = 1\n[migrate]\nmax_blocking_rows = 1.5\n", "policies.toml:3:21: cannot decode TOML float"},
		{"max blocking rows negative", "version = 1\n[migrate]\n  max_blocking_rows = -1\n", "policies.toml:3:3: max_blocking_rows must not be negative"},
		{"unknown migrate key", "version = 1\n[migrate]\nmax_rows = 5\n", `policies.toml:3:1: unknown key "migrate.max_rows"`},
		{"duplicate key", "version = 1\nversion = 1\n", "policies.toml:2:1: key version is already defined"},
		{"syntax", "x", "policies.toml:1:1: expected '=' after key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("policies.toml", []byte(tt.text))
			if err == nil {
				t.Fatalf("no error; policy %+v", p)
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %T %v is not a *policy.Error", err, err)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error\n  %s\nwant prefix\n  %s", err, tt.want)
			}
			if pe.Line < 1 || pe.Column < 1 {
				t.Errorf("error %v has no position", err)
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load("testdata/does-not-exist.toml")
	var pe *Error
	if !errors.As(err, &pe) || pe.File != "testdata/does-not-exist.toml" || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("Load of a missing file: %v", err)
	}
}

func TestDefaultsWhenAbsent(t *testing.T) {
	tests := []struct {
		name string
		text string
		edit func(p *Policy) // turns the defaults into the expected policy
	}{
		{"empty file", "", func(*Policy) {}},
		{"version only", "version = 1\n", func(*Policy) {}},
		{
			name: "one lock key keeps the others",
			text: "version = 1\n[lock]\nttl = \"5s\"\n",
			edit: func(p *Policy) { p.Lock.TTL = Duration{5 * time.Second} },
		},
		{
			name: "a list replaces the default list",
			text: "version = 1\n[schema]\ncounter_columns = [\"qty\"]\n",
			edit: func(p *Policy) { p.Schema.CounterColumns = []string{"qty"} },
		},
		{
			name: "severity is normalised",
			text: "version = 1\n[rules]\nGQ002 = \"WARNING\"\nGM001 = \"off\"\n",
			edit: func(p *Policy) { p.Rules.GQ002, p.Rules.GM001 = SevWarning, SevOff },
		},
		{
			name: "max_blocking_rows",
			text: "version = 1\n[migrate]\nmax_blocking_rows = 100_000\n",
			edit: func(p *Policy) { p.Migrate.MaxBlockingRows = 100000 },
		},
		{
			name: "max_blocking_rows 0 is no limit, not absent",
			text: "version = 1\n[migrate]\nmax_blocking_rows = 0\n",
			edit: func(p *Policy) { p.Migrate.MaxBlockingRows = 0 },
		},
		{
			name: "false is kept, not taken for absent",
			text: "version = 1\n[schema]\nrequire_version = false\n[server]\nrequire_strict_mode = false\n",
			edit: func(p *Policy) {
				no := false
				p.Schema.RequireVersion, p.Server.RequireStrictMode = &no, &no
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse("p.toml", []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			want := Default()
			want.File = "p.toml"
			tt.edit(want)
			if d := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Policy{})); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	p := Default()
	if !p.RequireStrictMode() || p.Severity("GQ007", SevError) != SevError || p.Severity("nope", SevInfo) != SevInfo {
		t.Errorf("defaults: strict %v, GQ007 %s", p.RequireStrictMode(), p.Severity("GQ007", SevError))
	}
}

func TestTableOverrides(t *testing.T) {
	const text = `version = 1
[schema]
require_version = true

[[table]]
name = "t_payment"
unique = [["pay_no"], ["channel", "trade_no"]]
counters = []
keys = ["pay_no"]
versioned = false

[[table]]
name = "T_LEDGER_*"
counters = ["credit", "*_due"]
states = ["phase"]

[[table]]
name = "t_ledger_archive"
counters = ["nothing"]

[[table]]
name = "t_flag*"
versioned = true
`
	p, err := Parse("p.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	type check struct {
		what string
		got  any
		want any
	}
	checks := []check{
		// Heuristics for tables without an entry.
		{"t_stock.stock is a counter", p.IsCounter("t_stock", "stock"), true},
		{"t_stock.frozen_stock matches *_stock", p.IsCounter("t_stock", "FROZEN_STOCK"), true},
		{"version is never a counter", p.IsCounter("t_stock", "Version"), false},
		{"t_order.trade_no matches *_no", p.IsBusinessKey("t_order", "trade_no"), true},
		{"t_order.status is a state", p.IsState("t_order", "status"), true},
		{"t_order has no unique sets", p.UniqueSets("t_order"), [][]string(nil)},
		{"guarded table needs version", p.RequireVersion("t_order", true), true},
		{"unguarded table does not", p.RequireVersion("t_order", false), false},
		// counters = [] empties the heuristic; keys replaces it; states keep it.
		{"t_payment.balance is not a counter", p.IsCounter("t_payment", "balance"), false},
		{"t_payment.pay_no is a key", p.IsBusinessKey("t_payment", "pay_no"), true},
		{"t_payment.trade_no is no longer a key", p.IsBusinessKey("t_payment", "trade_no"), false},
		{"t_payment.status is still a state", p.IsState("t_payment", "status"), true},
		{"t_payment unique sets", p.UniqueSets("t_payment"), [][]string{{"pay_no"}, {"channel", "trade_no"}}},
		{"versioned = false exempts", p.RequireVersion("t_payment", true), false},
		// Globs match case-insensitively; the first matching entry wins.
		{"t_ledger_2024.credit is a counter", p.IsCounter("t_ledger_2024", "credit"), true},
		{"t_ledger_2024.amount_due matches *_due", p.IsCounter("t_ledger_2024", "amount_due"), true},
		{"t_ledger_2024.balance is not", p.IsCounter("t_ledger_2024", "balance"), false},
		{"t_ledger_2024.phase is a state", p.IsState("t_ledger_2024", "phase"), true},
		{"t_ledger_2024.status is not", p.IsState("t_ledger_2024", "status"), false},
		{"first entry wins for t_ledger_archive", p.IsCounter("t_ledger_archive", "credit"), true},
		{"entry without versioned keeps the heuristic", p.RequireVersion("t_ledger_2024", false), false},
		{"versioned = true requires it without counters", p.RequireVersion("t_flags", false), true},
		{"no override for t_other", p.Override("t_other") == nil, true},
	}
	for _, c := range checks {
		if d := cmp.Diff(c.want, c.got, cmpopts.IgnoreUnexported(Policy{})); d != "" {
			t.Errorf("%s: (-want +got)\n%s", c.what, d)
		}
	}
}

// FuzzParse feeds arbitrary text to Parse: it must return a policy or a
// positioned *Error, never panic.
func FuzzParse(f *testing.F) {
	if ref, err := os.ReadFile(referencePath); err == nil {
		f.Add(ref)
	}
	for _, s := range []string{
		"",
		"version = 1\n",
		"version = 1\n[schema]\ncounter_columns = [\"a\", \"*_b\"]\nrequire_version = false\n",
		"version = 1\n[[table]]\nname = \"t_*\"\nunique = [[\"a\", \"b\"]]\ncounters = []\nversioned = true\n",
		"version = 1\n[rules]\nGQ007 = \"off\"\nGS003 = \"WARNING\"\n",
		"version = 1\n[lock]\nttl = \"1s\"\nwait = \"1ms\"\nmax_attempts = 2\nbackoff_min = \"1ms\"\nbackoff_max = \"2ms\"\n",
		"version = 1\n[lock]\nttl = 3\n",
		"version = 1\n[[table]]\nname = \"[\"\n",
		"version = 1\n[[table]]\n[[table]]\nname = \"x\"\n",
		"[schema\n",
		"version = 99999999999999999999\n",
		"version = 1\n[rules]\nGQ007 = \"\"\n",
		"a.b.c = 1\n",
		"version = 1\n[gen]\nstrip_prefix = '''\nmulti\n'''\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Parse("fuzz.toml", b)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *policy.Error: %v", err, err)
			}
			if p != nil {
				t.Fatalf("policy and error both returned")
			}
			return
		}
		if p.Version != 1 || p.Schema.VersionColumn == "" || p.Lock.MaxAttempts < 1 {
			t.Fatalf("accepted an invalid policy: %+v", p)
		}
		for _, code := range Codes() {
			if s := p.Severity(code, SevError); s.Rank() == 0 && s != SevOff {
				t.Fatalf("%s: accepted severity %q", code, s)
			}
		}
		// The matchers must cope with whatever globs were accepted.
		p.IsCounter("t_x", "stock")
		p.IsBusinessKey("t_x", "pay_no")
		p.IsState("t_x", "status")
		p.UniqueSets("t_x")
		p.RequireVersion("t_x", true)
	})
}

// guard init keeps a max_blocking_rows the base policy set, and writes no
// [migrate] section for the default.
func TestProposalKeepsMaxBlockingRows(t *testing.T) {
	for _, rows := range []int64{0, 5000, DefaultMaxBlockingRows} {
		base := Default()
		base.Migrate.MaxBlockingRows = rows
		text := (&Proposal{Base: base}).TOML()
		got, err := Parse("p.toml", text)
		if err != nil {
			t.Fatalf("rows %d: %v\n%s", rows, err, text)
		}
		if got.Migrate.MaxBlockingRows != rows {
			t.Errorf("rows %d: read back %d from\n%s", rows, got.Migrate.MaxBlockingRows, text)
		}
		if has := strings.Contains(string(text), "[migrate]"); has != (rows != DefaultMaxBlockingRows) {
			t.Errorf("rows %d: [migrate] written %v", rows, has)
		}
	}
}
