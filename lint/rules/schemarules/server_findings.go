package schemarules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// serverRules are what GS011 and GS012 share: the facts of the server as a
// whole, and findings named by it (host:port) rather than by a database.

// durabilityOf returns what the audit read of how the server keeps commits
// and replicates; nil offline, on TiDB, or when the audit did not read it.
func durabilityOf(p *lint.Pass) *lint.Durability {
	if p.Live == nil || p.Live.TiDB != nil {
		return nil
	}
	return p.Live.Durability
}

// serverFinding reports a finding of the server d: the setting stands in
// the column slot so that findings on different settings stay apart, and
// settings carries the values the finding rests on (JSON "settings").
// A zero severity is the rule's, as the policy makes it.
func serverFinding(p *lint.Pass, d *lint.Durability, sev policy.Severity, setting, message, fix string, settings map[string]string) {
	p.Report(lint.Finding{
		Target:     d.Server,
		Severity:   sev,
		ColumnName: setting,
		Message:    message,
		Fix:        fix,
		Settings:   settings,
	})
}

// lesser is the severity of a rule's findings that weigh less than its
// default: warning, unless the policy sets the rule's severity.
func lesser(p *lint.Pass) policy.Severity {
	return p.Policy.Severity(p.Rule.Code, policy.SevWarning)
}

// cannotTell reports, at info severity, that a check of the rule could not
// run on the server and why: a refused statement must never read as a
// clean server, nor as a finding. Nothing is reported when the rule is off.
func cannotTell(p *lint.Pass, d *lint.Durability, what, why, fix string) {
	if p.Policy.Severity(p.Rule.Code, p.Rule.Severity) == policy.SevOff {
		return
	}
	p.Report(lint.Finding{
		Target:   d.Server,
		Severity: policy.SevInfo,
		Message:  fmt.Sprintf("cannot tell %s: %s", what, strings.TrimSpace(why)),
		Fix:      fix,
	})
}

// settingsOf returns the named variables of d that the server gave, for a
// finding's settings.
func settingsOf(d *lint.Durability, names ...string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		if v, ok := d.Var(n); ok {
			out[n] = v
		}
	}
	return out
}

// replicaOfText describes the sources a replica reads from: "a replica of
// db1:3306", or "a replica" when the account is not shown the source.
func replicaOfText(d *lint.Durability) string {
	var addrs []string
	for _, s := range d.Sources {
		if s.Addr != "" {
			addrs = append(addrs, s.Addr)
		}
	}
	if len(addrs) == 0 {
		return "a replica"
	}
	sort.Strings(addrs)
	return "a replica of " + strings.Join(addrs, ", ")
}

// replicasText describes the replicas of a primary: "1 replica
// (10.0.0.2:3306)", "2 replicas".
func replicasText(d *lint.Durability) string {
	n, _ := d.HasReplicas()
	s := countOf(n, "replica")
	if len(d.Replicas) > 0 {
		s += " (" + strings.Join(d.Replicas, ", ") + ")"
	}
	return s
}

// configSection names the section of the server configuration file.
func configSection(d *lint.Durability) string {
	if d.MariaDB {
		return "[mariadb]"
	}
	return "[mysqld]"
}

// persistently says how a global setting survives a restart: SET PERSIST
// on MySQL 8, the configuration file on MariaDB.
func persistently(d *lint.Durability, name, value string) string {
	if d.MariaDB {
		return fmt.Sprintf("SET GLOBAL %s = %s, and %s = %s under %s in the server configuration so that a restart keeps it",
			name, value, name, value, configSection(d))
	}
	return fmt.Sprintf("SET PERSIST %s = %s (MySQL 8; on 5.7 SET GLOBAL and %s = %s under [mysqld])", name, value, name, value)
}
