package codegen

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"gopkg.in/yaml.v3"
)

// The files guard gen alerts writes.
const (
	AlertsFile    = "guard-alerts.yml"
	DashboardFile = "guard-dashboard.json"
)

// AlertsOptions say how the alert rules and the dashboard are rendered.
type AlertsOptions struct {
	// LockTTL is the TTL of the locks the DAOs take: GuardLockHoldNearTTL
	// fires when the p99 hold time passes a third of it.
	LockTTL time.Duration
}

// alertsData is what the alerts and dashboard templates render.
type alertsData struct {
	// LockTTL is the TTL as Go prints it (3s); HoldThreshold a third of it
	// in seconds, as PromQL and JSON read it (1).
	LockTTL       string
	HoldThreshold string
}

// RenderAlerts renders the alert rules and the dashboard with the embedded
// templates.
func RenderAlerts(o AlertsOptions) (map[string][]byte, error) {
	return DefaultTemplates().RenderAlerts(o)
}

// RenderAlerts renders guard-alerts.yml (Prometheus rules) and
// guard-dashboard.json (Grafana) for the metrics of guard_prometheus.go.
// The keys are file names; a template that renders invalid YAML or JSON is
// an error.
func (t *Templates) RenderAlerts(o AlertsOptions) (map[string][]byte, error) {
	if o.LockTTL < minLockTTL {
		return nil, fmt.Errorf("lock TTL %v: the generated watchdog needs at least %v", o.LockTTL, minLockTTL)
	}
	d := alertsData{
		LockTTL:       o.LockTTL.String(),
		HoldThreshold: strconv.FormatFloat(seconds(o.LockTTL/3), 'g', -1, 64),
	}
	rules, err := t.execute(tmplAlerts, d)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Groups []struct {
			Rules []struct {
				Alert string `yaml:"alert"`
			} `yaml:"rules"`
		} `yaml:"groups"`
	}
	if err := yaml.Unmarshal(rules, &doc); err != nil || len(doc.Groups) == 0 {
		return nil, fmt.Errorf("template %s renders no rule groups for %s: %v", tmplAlerts, AlertsFile, err)
	}
	dash, err := t.execute(tmplDashboard, d)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(dash, &v); err != nil {
		return nil, fmt.Errorf("template %s renders invalid JSON for %s: %w", tmplDashboard, DashboardFile, err)
	}
	return map[string][]byte{AlertsFile: rules, DashboardFile: dash}, nil
}
