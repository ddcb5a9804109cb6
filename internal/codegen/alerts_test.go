package codegen

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// alertsDir holds guard-alerts.yml and guard-dashboard.json rendered with
// the built-in lock TTL (golden, -update rewrites them) and the promtool
// unit tests of the alerts, guard-alerts_test.yml.
const alertsDir = "testdata/alerts"

// promtoolAdvice is how to get promtool: make test installs it.
const promtoolAdvice = "install it with `apt-get install -y prometheus` (make deps does it when it can)"

func TestAlertsGolden(t *testing.T) {
	files, err := RenderAlerts(AlertsOptions{LockTTL: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	compareDir(t, alertsDir, files, func(name string, _ []byte) bool {
		return name == AlertsFile || name == DashboardFile
	})
}

// promtool returns the path of promtool, failing the test when it is
// missing: the alerts are only known to work once Prometheus has read them.
func promtool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatalf("promtool not found: %s", promtoolAdvice)
	}
	return p
}

// alertsWithTests renders the alerts for ttl into a fresh folder beside
// the unit tests of testdata/alerts and returns the folder.
func alertsWithTests(t *testing.T, ttl time.Duration) string {
	t.Helper()
	files, err := RenderAlerts(AlertsOptions{LockTTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, files)
	tests, err := os.ReadFile(filepath.Join(alertsDir, "guard-alerts_test.yml"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "guard-alerts_test.yml"), tests)
	return dir
}

// TestAlertsPromtool checks the rules with promtool and runs the unit tests:
// every alert fires on its condition, per table, and stays quiet below it.
// The same tests against the rules of a 10s TTL must fail on the hold-time
// alert (its threshold moves from 1s to 3.33s): they are not vacuous.
func TestAlertsPromtool(t *testing.T) {
	bin := promtool(t)
	dir := alertsWithTests(t, 3*time.Second)
	if out, err := exec.Command(bin, "check", "rules", filepath.Join(dir, AlertsFile)).CombinedOutput(); err != nil {
		t.Fatalf("promtool check rules: %v\n%s", err, out)
	} else if !strings.Contains(string(out), "SUCCESS: 4 rules found") {
		t.Errorf("promtool check rules: %s", out)
	}
	if out, err := exec.Command(bin, "test", "rules", filepath.Join(dir, "guard-alerts_test.yml")).CombinedOutput(); err != nil {
		t.Fatalf("promtool test rules: %v\n%s", err, out)
	}

	other := alertsWithTests(t, 10*time.Second)
	out, err := exec.Command(bin, "test", "rules", filepath.Join(other, "guard-alerts_test.yml")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "GuardLockHoldNearTTL") {
		t.Errorf("unit tests against a 10s TTL: err %v, want a failure of GuardLockHoldNearTTL:\n%s", err, out)
	}
	for _, alert := range []string{"GuardLockAcquireFailing", "GuardLockReleaseFailing", "GuardCASConflictRateHigh"} {
		if strings.Contains(string(out), "alertname: "+alert) {
			t.Errorf("a 10s TTL changed %s:\n%s", alert, out)
		}
	}
}

// TestAlertsNames checks the contract of DESIGN §7 in the rendered rules.
func TestAlertsNames(t *testing.T) {
	files, err := RenderAlerts(AlertsOptions{LockTTL: 4500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	rules := string(files[AlertsFile])
	for _, want := range []string{
		"alert: GuardLockAcquireFailing", "alert: GuardLockReleaseFailing", "alert: GuardCASConflictRateHigh", "alert: GuardLockHoldNearTTL",
		`guard_lock_acquire_total{result!="ok"}[5m]`, `guard_lock_release_total{result!="ok"}[5m]`, `guard_cas_total{result="conflict"}[5m]`,
		"sum by (table, le) (rate(guard_lock_hold_seconds_bucket[5m]))", "> 1.5\n", "lock TTL 4.5s",
	} {
		if !strings.Contains(rules, want) {
			t.Errorf("%s lacks %q", AlertsFile, want)
		}
	}
	if _, err := RenderAlerts(AlertsOptions{}); err == nil {
		t.Errorf("a zero lock TTL rendered")
	}
}

// TestDashboardPanels reads the dashboard as Grafana would: every metric
// of guard_prometheus.go is queried by a panel, and the hold-time panel
// draws a third of the TTL.
func TestDashboardPanels(t *testing.T) {
	files, err := RenderAlerts(AlertsOptions{LockTTL: 6 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Title  string `json:"title"`
		UID    string `json:"uid"`
		Panels []struct {
			ID          int    `json:"id"`
			Title       string `json:"title"`
			FieldConfig struct {
				Defaults struct {
					Thresholds struct {
						Steps []struct {
							Value *float64 `json:"value"`
						} `json:"steps"`
					} `json:"thresholds"`
				} `json:"defaults"`
			} `json:"fieldConfig"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(files[DashboardFile], &dash); err != nil {
		t.Fatal(err)
	}
	if dash.Title == "" || dash.UID == "" {
		t.Errorf("dashboard without title or uid")
	}
	var exprs []string
	ids := map[int]bool{}
	for _, p := range dash.Panels {
		if ids[p.ID] {
			t.Errorf("panel id %d twice", p.ID)
		}
		ids[p.ID] = true
		for _, tg := range p.Targets {
			exprs = append(exprs, tg.Expr)
		}
		if strings.HasPrefix(p.Title, "Lock hold time") {
			steps := p.FieldConfig.Defaults.Thresholds.Steps
			if len(steps) != 2 || steps[1].Value == nil || *steps[1].Value != 2 {
				t.Errorf("hold-time panel thresholds %+v, want a line at 2 (6s/3)", steps)
			}
		}
	}
	for _, metric := range []string{"guard_lock_acquire_total", "guard_lock_release_total", "guard_lock_renew_failures_total", "guard_cas_total", "guard_lock_hold_seconds_bucket"} {
		if !slices.ContainsFunc(exprs, func(e string) bool { return strings.Contains(e, metric+"{") }) {
			t.Errorf("no panel queries %s", metric)
		}
	}
}
