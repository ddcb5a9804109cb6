package rules

import (
	"testing"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// queryRules are the rules built on the statement analysis of analysis.go.
var queryRules = []*lint.Rule{
	WriteWithoutWhere, UnguardedDecrement, AbsoluteCounterWrite,
	VersionNotBumped, UncheckedStateTransition, ClampedDecrement,
	SelectForUpdate, UpsertAsLock,
}

// FuzzQueryRules runs the statement analysis rules on arbitrary SQL: they
// must never panic, whatever tree the parser returns.
func FuzzQueryRules(f *testing.F) {
	for _, seed := range []string{
		"UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?",
		"UPDATE t_inventory s JOIN t_order o ON o.product_id = s.id AND s.inventory >= o.quantity SET s.inventory = s.inventory - o.quantity, s.version = s.version + 1",
		"UPDATE shop.t_inventory SET inventory = GREATEST(inventory - 1, 0), status = IF(inventory > 1, 'on', 'off') WHERE 1 OR id = ?",
		"UPDATE t_inventory SET inventory = CASE WHEN inventory >= ? THEN inventory - ? END, version = ? WHERE NOT 0",
		"UPDATE t_inventory SET inventory = inventory - LEAST(inventory, ?) WHERE inventory BETWEEN ? AND 10 AND inventory - ? > -1",
		"DELETE a, b FROM t_order a LEFT JOIN t_payment b ON 1 = 1 WHERE 'a' = 'a' AND (1 = 1 OR NULL)",
		"INSERT INTO t_inventory (id, inventory) VALUES (1, 2) ON DUPLICATE KEY UPDATE inventory = inventory + -VALUES(inventory), version = 1 + version",
		"UPDATE t_order SET status = (SELECT status FROM t_payment WHERE status = 1) WHERE id IN (SELECT 1) AND version = @v",
		"REPLACE INTO t_order SET id = 1; SELECT 1 FOR UPDATE; UPDATE (SELECT 1) x SET x.a = 1",
		"UPDATE t SET a = -(-(-1.5e3)), b = b - 0x10 WHERE b >= 18446744073709551615 AND b > -9223372036854775808",
		"UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory - ? WHEN ? THEN IF(inventory < ?, inventory, inventory - ?) ELSE inventory - 1 END WHERE id IN (?, ?) AND inventory >= CASE id WHEN ? THEN ? WHEN ? THEN ? END",
		"UPDATE t_inventory SET inventory = CASE WHEN id = ? AND inventory >= ? THEN inventory - ? ELSE 0 END WHERE CASE WHEN id = ? THEN inventory - ? >= 0 END AND NOT inventory",
		"SELECT inventory FROM t_inventory WHERE id = ? AND status = 'on' FOR UPDATE",
		"UPDATE t_order SET status = 2, updated_at = ? WHERE id IN (1, 2) AND status IN (0, 1) AND updated_at = ?; UPDATE t_order SET status = 'x' WHERE status <> NULL",
	} {
		f.Add(seed)
	}
	sch := testSchema()
	pol := policy.Default()
	f.Fuzz(func(t *testing.T, text string) {
		p := sqlparse.NewParser()
		var stmts []*lint.Statement
		for _, piece := range sqlparse.Split(text) {
			node, err := p.Parse(piece.Text)
			if err != nil {
				continue
			}
			stmts = append(stmts, &lint.Statement{SQL: piece.Text, Node: node, File: "fuzz.sql", Line: 1, Column: 1, EndLine: 1})
		}
		// The inference reads the same trees: it must not panic either, and
		// the rules must run under what it learns.
		var obs []lint.Observation
		for _, st := range stmts {
			Learn.Observe(st, sch, func(o lint.Observation) { obs = append(obs, o) })
		}
		pol := pol.WithInferred(Learn.Infer(obs, sch, pol))
		for _, r := range queryRules {
			pass := lint.NewPass(r, pol, sch, stmts, nil, nil, func(fd lint.Finding) {
				if fd.Code != r.Code || fd.Message == "" {
					t.Errorf("%s: bad finding %+v", r.Code, fd)
				}
			})
			if err := r.Run(pass); err != nil {
				t.Errorf("%s: %v", r.Code, err)
			}
		}
	})
}
