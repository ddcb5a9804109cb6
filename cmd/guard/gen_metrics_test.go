package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/codegen"
)

// TestGenMetricsPrometheus: --metrics prometheus adds guard_prometheus.go to
// gen dao and gen table, and an unknown backend is exit 2.
func TestGenMetricsPrometheus(t *testing.T) {
	t.Chdir("../..")
	out := filepath.Join(t.TempDir(), "inventorydao")
	if _, stderr, code := guard(t, "gen", "dao", "--table", "t_inventory", "--schema", genSchema, "--out", out, "--metrics", "prometheus"); code != exitClean {
		t.Fatalf("exit %d; stderr: %s", code, stderr)
	}
	got := readDir(t, out)
	want := readDir(t, "internal/codegen/e2e/inventorydao")
	for name := range got {
		if d := cmp.Diff(want[name], got[name]); d != "" {
			t.Errorf("%s differs from the e2e package, generated with --metrics prometheus (-e2e +got):\n%s", name, d)
		}
	}
	if _, ok := got[codegen.PrometheusFile]; !ok {
		t.Errorf("no %s: %v", codegen.PrometheusFile, got)
	}
	_, stderr, code := guard(t, "gen", "dao", "--table", "t_inventory", "--schema", genSchema, "--out", filepath.Join(t.TempDir(), "x"), "--metrics", "statsd")
	if code != exitInput || !strings.Contains(stderr, `--metrics "statsd" is not supported (supported: prometheus)`) {
		t.Errorf("--metrics statsd: exit %d, stderr %q", code, stderr)
	}

	t.Chdir(t.TempDir())
	stdout, stderr, code := guard(t, "gen", "table", "t_ticket", "--counter", "seats", "--metrics", "prometheus")
	if code != exitClean || !strings.Contains(stdout, "wrote ticketdao/guard_prometheus.go\n") {
		t.Errorf("gen table --metrics prometheus: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, stderr, code := guard(t, "gen", "table", "t_wallet", "--counter", "balance", "--metrics", "statsd"); code != exitInput || !strings.Contains(stderr, "statsd") {
		t.Errorf("gen table --metrics statsd: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat("migrations/000002_create_t_wallet.up.sql"); err == nil {
		t.Errorf("a refused gen table wrote its migration")
	}
}
