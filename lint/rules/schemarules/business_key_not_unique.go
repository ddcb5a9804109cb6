package schemarules

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/lint"
)

// BusinessKeyNotUnique reports business keys and policy unique sets without a
// UNIQUE index on exactly their columns, and, on a table sharded over a
// keyspace (Pass.Sharding), those whose UNIQUE index holds per shard only.
var BusinessKeyNotUnique = &lint.Rule{
	Code:    "GS005",
	Name:    "business-key-not-unique",
	Summary: "business key (or policy `unique` set) has no UNIQUE index on exactly it",
	Doc: "Idempotency rests on the database refusing the second row: two retries of one " +
		"payment callback that both pass a \"SELECT ... WHERE pay_no = ?\" check under a lost " +
		"lock insert two rows, and the order is paid twice. Only a UNIQUE index makes the " +
		"second INSERT fail (1062). An index on (pay_no, channel) does not: it allows the " +
		"same pay_no once per channel. On a sharded Vitess keyspace (--vschema) each shard " +
		"enforces the index on its own rows only: it holds across the keyspace when it contains " +
		"the columns of the primary vindex, or when a unique lookup vindex backs it.",
	Fix: "ALTER TABLE t_payment ADD UNIQUE KEY uk_pay_no (pay_no), ALGORITHM=INPLACE, LOCK=NONE " +
		"(remove duplicates first: the build fails with 1062 if any exist)",
	Kind:     lint.KindSchema,
	Severity: policy.SevError,
	Run:      runBusinessKeyNotUnique,
}

func runBusinessKeyNotUnique(p *lint.Pass) error {
	for _, t := range wholeTables(p) {
		sharded := p.Sharding.Table(t.Name)
		reported := map[string]bool{}
		for _, c := range t.Columns {
			if !p.Policy.IsBusinessKey(t.Name, c.Name) {
				continue
			}
			key := []string{c.Name}
			what := "business key " + t.Name + "." + c.Name
			if t.HasUniqueOn(c.Name) {
				reported[strings.ToLower(c.Name)] = reportPerShard(p, t, sharded, key, what)
				continue
			}
			if sharded != nil && sharded.LookupOn(key) != nil {
				continue // the lookup table's primary key is the unique index
			}
			reported[strings.ToLower(c.Name)] = true
			msg := what + " has no UNIQUE index on exactly " + list(key)
			if ix := widerUnique(t, c.Name); ix != nil {
				msg += "; the unique index " + ix.Name + " on " + list(ix.Columns) + " allows duplicates of " + c.Name
			}
			msg, fix := acrossShards(t, sharded, key, msg, fixAddUnique(t, key))
			p.ReportGap(t, lint.Gap{Table: t.Name, Rule: p.Rule.Code, Columns: key}, c.Name, fix, "%s", msg)
		}
		o := p.Policy.Override(t.Name)
		var sets [][]string
		for _, set := range p.Policy.UniqueSets(t.Name) {
			if len(set) == 1 && reported[strings.ToLower(set[0])] {
				continue
			}
			if repeated(sets, set) {
				continue // a policy may name a set twice: one index closes both
			}
			sets = append(sets, set)
			var missing []string
			for _, c := range set {
				if t.Column(c) == nil {
					missing = append(missing, c)
				}
			}
			if len(missing) > 0 {
				// A glob entry spans tables that need not all carry the set;
				// an entry naming this table alone is a policy mistake worth saying.
				if o != nil && !hasGlob(o.Name) {
					p.ReportTableFix(t, strings.Join(set, ","),
						fmt.Sprintf("correct the unique set %s of the [[table]] entry %q in policies.toml: %s has no column %s",
							list(set), o.Name, t.Name, strings.Join(missing, ", ")),
						"policy unique set %s of %s names columns the table lacks: %s",
						list(set), t.Name, strings.Join(missing, ", "))
				}
				continue
			}
			// The set stands in the column slot so that two sets of one table
			// stay two findings.
			cols := make([]string, len(set))
			for i, name := range set {
				cols[i] = t.Column(name).Name
			}
			what := "policy unique set " + list(set) + " of " + t.Name
			if t.HasUniqueOn(set...) {
				reportPerShard(p, t, sharded, cols, what)
				continue
			}
			if sharded != nil && sharded.LookupOn(cols) != nil {
				continue
			}
			msg, fix := acrossShards(t, sharded, cols, what+" has no UNIQUE index on exactly those columns", fixAddUnique(t, set))
			p.ReportGap(t, lint.Gap{Table: t.Name, Rule: p.Rule.Code, Columns: cols}, strings.Join(set, ","), fix, "%s", msg)
		}
	}
	return nil
}

// reportPerShard reports key, which has a UNIQUE index on exactly its
// columns, when the table is sharded and that index holds per shard only;
// it returns whether it reported. The finding carries no gap: another
// index would hold per shard too, and what closes it is a vindex, which
// no migration adds.
func reportPerShard(p *lint.Pass, t *schema.Table, sharded *lint.ShardedTable, key []string, what string) bool {
	if sharded == nil || sharded.UniqueAcrossShards(key) {
		return false
	}
	ix := uniqueOn(t, key)
	msg := fmt.Sprintf("%s is unique per shard only: %s, so the UNIQUE index %s on %s lets every shard hold the same %s once",
		what, shardedBy(sharded), ix.Name, list(ix.Columns), listOrOne(key))
	msg += backfilling(sharded, key)
	p.ReportTableFix(t, strings.Join(key, ","), fixAcrossShards(t, sharded, key), "%s", msg)
	return true
}

// acrossShards adds to the finding of a key without a UNIQUE index, and to
// its fix, that on a sharded table the index alone holds per shard only.
func acrossShards(t *schema.Table, sharded *lint.ShardedTable, key []string, msg, fix string) (string, string) {
	if sharded == nil || sharded.UniqueAcrossShards(key) {
		return msg, fix
	}
	msg += "; " + shardedBy(sharded) + ", so such an index would hold per shard only" + backfilling(sharded, key)
	fix += "; then, since the index holds per shard only, " + fixAcrossShards(t, sharded, key)
	return msg, fix
}

// shardedBy says how a sharded table picks the shard of a row.
func shardedBy(s *lint.ShardedTable) string {
	ks := "its keyspace"
	if s.Keyspace != "" {
		ks = "keyspace " + s.Keyspace
	}
	vindex := s.Primary.Name
	if !strings.EqualFold(s.Primary.Type, vindex) {
		vindex += ", type " + s.Primary.Type
	}
	return fmt.Sprintf("%s shards %s by %s (vindex %s)", ks, s.Name, list(s.Primary.Columns), vindex)
}

// backfilling names the unique lookup vindexes on key that are still
// write_only, which refuse nothing yet.
func backfilling(s *lint.ShardedTable, key []string) string {
	out := ""
	for _, v := range s.Backfilling {
		if schema.SameColumns(v.Columns, key) {
			out += fmt.Sprintf("; the unique lookup vindex %s on %s is write_only (still being backfilled): it refuses no duplicate until externalized", v.Name, list(v.Columns))
		}
	}
	return out
}

// fixAcrossShards is how a business key becomes unique across the shards
// of a keyspace. Adding the sharding column to the key is no fix: it makes
// the pair unique, which is what the index already says, not the key.
func fixAcrossShards(t *schema.Table, s *lint.ShardedTable, key []string) string {
	ks := s.Keyspace
	if ks == "" {
		ks = "<keyspace>"
	}
	for _, v := range s.Backfilling {
		if schema.SameColumns(v.Columns, key) {
			return fmt.Sprintf("once the backfill of the unique lookup vindex %s is done, make it refuse duplicates: "+
				"vtctldclient --server \"$VTCTLD\" LookupVindex --name %s --table-keyspace <the keyspace of its lookup table> externalize "+
				"(the backfill fails on duplicates: remove them first)", v.Name, v.Name)
		}
	}
	name := schema.GuardName(append(append([]string{t.Name}, key...), "lookup")...)
	return fmt.Sprintf("make %s unique across the keyspace with a unique lookup vindex owned by %s, whose lookup table refuses a second row in any shard: "+
		"vtctldclient --server \"$VTCTLD\" LookupVindex --name %s --table-keyspace %s create --keyspace %s --type consistent_lookup_unique --table-owner %s --table-owner-columns %s, "+
		"then LookupVindex ... externalize once it is backfilled (the backfill fails on duplicates: remove them first); or shard %s by %s. "+
		"Adding %s to the key is no fix: that makes %s unique, not %s",
		listOrOne(key), t.Name, name, ks, ks, t.Name, strings.Join(key, ","),
		t.Name, listOrOne(key), strings.Join(s.Primary.Columns, ", "), list(append(append([]string{}, s.Primary.Columns...), key...)), listOrOne(key))
}

// uniqueOn returns the unique index (or primary key) on exactly cols.
func uniqueOn(t *schema.Table, cols []string) *schema.Index {
	for _, ix := range t.Indexes {
		if (ix.Unique || ix.Primary) && schema.SameColumns(ix.Columns, cols) {
			return ix
		}
	}
	return nil
}

// listOrOne prints one column bare and several as a list.
func listOrOne(cols []string) string {
	if len(cols) == 1 {
		return cols[0]
	}
	return list(cols)
}

// widerUnique returns a unique index that contains col among other columns:
// the usual near miss.
func widerUnique(t *schema.Table, col string) *schema.Index {
	for _, ix := range t.Indexes {
		if !ix.Unique && !ix.Primary {
			continue
		}
		for _, c := range ix.Columns {
			if strings.EqualFold(c, col) {
				return ix
			}
		}
	}
	return nil
}

// repeated reports whether sets already holds set, in any order.
func repeated(sets [][]string, set []string) bool {
	for _, s := range sets {
		if schema.SameColumns(s, set) {
			return true
		}
	}
	return false
}
