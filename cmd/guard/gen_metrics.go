package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/codegen"
)

// metricsFlag is --metrics of guard gen dao and guard gen table.
func metricsFlag() cli.Flag {
	return &cli.StringFlag{Name: "metrics", Usage: "also generate a metrics backend: " + strings.Join(codegen.MetricsBackends, ", ") +
		" (guard_prometheus.go with NewPrometheusMetrics)"}
}

// metricsBackend is the value of --metrics, checked.
func metricsBackend(c *cli.Context) (string, error) {
	m := c.String("metrics")
	if m != "" && !slices.Contains(codegen.MetricsBackends, m) {
		return "", usageErr(c, fmt.Sprintf("--metrics %q is not supported (supported: %s)", m, strings.Join(codegen.MetricsBackends, ", ")))
	}
	return m, nil
}
