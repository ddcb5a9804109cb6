// Package plan turns the gaps between a policy and a schema into ordered
// golang-migrate steps: one DDL statement each, with the algorithm and lock
// it runs with, whether it blocks writes, and how to roll it back. Plan is a
// pure function of its inputs; WriteFiles writes the files; the live inputs
// (server, sql_mode, triggers, row counts) come from ReadLive.
package plan

import (
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

// Gap is one guard the policy asks for and a table lacks, as the schema
// rules report it (lint.Gap): the planner never works out on its own what is
// missing, so a schema with every gap closed passes the rules.
type Gap = lint.Gap

// gapOrder is the order of a table's steps: NULLable counters first (a CHECK
// lets NULL through), the version column, CHECKs, then UNIQUE indexes.
var gapOrder = []string{"GS004", "GS006", "GS003", "GS005"}

// Gaps returns the gaps the schema rules report on s under pol (the findings
// of GS003–GS006 that guard lint prints, rules turned off included as none),
// ordered by table name, then as Plan orders its steps.
func Gaps(s *schema.Schema, pol *policy.Policy) []Gap {
	return shardedGaps(s, pol, nil)
}

// shardedGaps is Gaps with the tables sh spreads over shards judged as
// guard lint --vschema judges them.
func shardedGaps(s *schema.Schema, pol *policy.Policy, sh *lint.Sharding) []Gap {
	if s == nil {
		return nil
	}
	gaps, err := lint.Gaps(rules.All(), pol, s, sh, gapOrder)
	if err != nil {
		// The schema rules only read the model; an error is a bug in one.
		panic(err)
	}
	return gaps
}
