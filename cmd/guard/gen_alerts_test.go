package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/codegen"
)

// TestGenAlerts writes the rules and the dashboard: with the policy's TTL
// by default, with --lock-ttl when given.
func TestGenAlerts(t *testing.T) {
	t.Chdir(t.TempDir())
	stdout, stderr, code := guard(t, "gen", "alerts", "--out", "deploy")
	if code != exitClean {
		t.Fatalf("exit %d; stderr: %s", code, stderr)
	}
	if want := "wrote deploy/guard-alerts.yml\nwrote deploy/guard-dashboard.json\n"; stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	want, err := codegen.RenderAlerts(codegen.AlertsOptions{LockTTL: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	got := readDir(t, "deploy")
	for name, b := range want {
		if d := cmp.Diff(string(b), got[name]); d != "" {
			t.Errorf("%s differs from the built-in TTL's (-want +got):\n%s", name, d)
		}
	}

	if _, stderr, code := guard(t, "gen", "alerts", "--out", "ttl10", "--lock-ttl", "10s"); code != exitClean {
		t.Fatalf("--lock-ttl: exit %d; stderr: %s", code, stderr)
	}
	if rules := readDir(t, "ttl10")[codegen.AlertsFile]; !strings.Contains(rules, "> 3.333333\n") || !strings.Contains(rules, "lock TTL 10s") {
		t.Errorf("--lock-ttl 10s: threshold not a third of 10s:\n%s", rules)
	}

	// The policy's [lock] ttl is the default, as it is the DAO's.
	if err := os.WriteFile("policies.toml", []byte("[lock]\nttl = \"6s\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := guard(t, "gen", "alerts", "--out", "policy"); code != exitClean {
		t.Fatalf("policy TTL: exit %d; stderr: %s", code, stderr)
	}
	if rules := readDir(t, "policy")[codegen.AlertsFile]; !strings.Contains(rules, "> 2\n") || !strings.Contains(rules, "lock TTL 6s") {
		t.Errorf("policy ttl 6s: threshold not 2s:\n%s", rules)
	}
}

func TestGenAlertsErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"no out", nil, "missing --out"},
		{"bad ttl", []string{"--out", "d", "--lock-ttl", "soon"}, `invalid value "soon" for flag --lock-ttl`},
		{"zero ttl", []string{"--out", "d", "--lock-ttl", "0s"}, "--lock-ttl 0s must be positive"},
		{"negative ttl", []string{"--out", "d", "--lock-ttl", "-3s"}, "--lock-ttl -3s must be positive"},
		{"ttl too short", []string{"--out", "d", "--lock-ttl", "1ms"}, "watchdog needs at least"},
		{"argument", []string{"--out", "d", "extra"}, "gen alerts takes no arguments"},
		{"unknown format", []string{"--out", "d", "--format", "json"}, "json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := guard(t, append([]string{"gen", "alerts"}, tt.args...)...)
			if code != exitInput || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, exitInput, tt.want)
			}
		})
	}
	if _, err := os.Stat("d"); err == nil {
		t.Errorf("a refused run wrote files")
	}
	stdout, _, code := guard(t, "gen", "alerts", "--help")
	if code != exitClean {
		t.Errorf("--help: exit %d", code)
	}
	for _, want := range []string{"GuardLockAcquireFailing", "GuardLockReleaseFailing", "GuardCASConflictRateHigh", "GuardLockHoldNearTTL",
		"guard-dashboard.json", "Examples:", "guard gen alerts --out deploy/prometheus --lock-ttl 10s"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--help lacks %q:\n%s", want, stdout)
		}
	}
}
