package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/codegen"
)

func genAlertsCommand() *cli.Command {
	return &cli.Command{
		Name:      "alerts",
		Usage:     "write Prometheus alert rules and a Grafana dashboard for the generated metrics",
		ArgsUsage: " ",
		Description: `Writes into --out the files that watch the metrics of guard gen dao
--metrics prometheus:

guard-alerts.yml      Prometheus alerting rules, each firing once per table label:
  GuardLockAcquireFailing   lock success rate below 99% over 5 minutes
  GuardLockReleaseFailing   more than 1% of the releases not ok (expired, not_owner, error)
  GuardCASConflictRateHigh  CAS conflict rate above 1% over 5 minutes: the lock layer has failed
  GuardLockHoldNearTTL      lock hold p99 above a third of --lock-ttl
guard-dashboard.json  Grafana dashboard: the five metrics, with the thresholds of the alerts

--lock-ttl is the TTL the DAOs run with (default: the policy's [lock] ttl, the
DAO's DefaultLockTTL). Check the rules with promtool check rules guard-alerts.yml.

Examples:
   guard gen alerts --out deploy/prometheus
   guard gen alerts --out deploy/prometheus --lock-ttl 10s`,
		Flags: append(textOnlyFlags.flags(),
			&cli.StringFlag{Name: "out", Usage: "output folder", Required: true},
			&cli.DurationFlag{Name: "lock-ttl", Usage: "the lock TTL of the DAOs", DefaultText: "[lock] ttl of the policy, built in 3s"},
			&cli.StringFlag{Name: "templates", Usage: "folder of customised templates (see guard gen templates)"},
		),
		Action: runGenAlerts,
	}
}

func runGenAlerts(c *cli.Context) error {
	if c.Args().Present() {
		return inputErrf("gen alerts takes no arguments (got %q)", c.Args().Slice())
	}
	pol, err := loadPolicy(c)
	if err != nil {
		return err
	}
	ttl := pol.Lock.TTL.Duration
	if c.IsSet("lock-ttl") {
		ttl = c.Duration("lock-ttl")
		if ttl <= 0 {
			return usageErr(c, fmt.Sprintf("--lock-ttl %v must be positive", ttl))
		}
	}
	tmpl, err := loadTemplates(c)
	if err != nil {
		return err
	}
	files, err := tmpl.RenderAlerts(codegen.AlertsOptions{LockTTL: ttl})
	if err != nil {
		return inputErr(err)
	}
	return writeFiles(c, c.String("out"), files)
}
