package lint

import "strings"

// Sharding says how a sharded database (Vitess, PlanetScale) spreads the
// rows of its tables over shards. Each shard is a server of its own that
// enforces a UNIQUE index on the rows it holds, and no more: the index holds
// across the shards only when two rows that agree on its columns always land
// on the same shard, or when something outside the shards (a unique lookup
// vindex) refuses the second one. A nil Sharding, or a table it does not
// list, is a table whole on one server.
type Sharding struct {
	// Tables holds the sharded tables by lower-case name.
	Tables map[string]*ShardedTable
}

// ShardedTable is one table whose rows are spread over the shards of a
// keyspace.
type ShardedTable struct {
	Name     string
	Keyspace string
	// Primary is the primary vindex: its columns pick the shard of each row.
	Primary Vindex
	// Lookups are the unique lookup vindexes the table owns, each backed by
	// a lookup table whose primary key refuses a second row with the same
	// values of its columns in any shard.
	Lookups []Vindex
	// Backfilling are the unique lookup vindexes of the table still being
	// backfilled (write_only): they refuse nothing yet.
	Backfilling []Vindex
}

// Vindex is a vindex of a table: its name in the keyspace, its type and
// the table's columns it maps.
type Vindex struct {
	Name, Type string
	Columns    []string
}

// Table returns the sharded table named name (any case), or nil when the
// table is whole on one server.
func (s *Sharding) Table(name string) *ShardedTable {
	if s == nil {
		return nil
	}
	return s.Tables[strings.ToLower(name)]
}

// UniqueAcrossShards reports whether a UNIQUE index on cols holds across
// every shard: it contains every column of the primary vindex (two rows
// equal on cols are on one shard), or every column of a unique lookup
// vindex (the lookup table refuses the second).
func (t *ShardedTable) UniqueAcrossShards(cols []string) bool {
	if containsAll(cols, t.Primary.Columns) {
		return true
	}
	return t.LookupWithin(cols) != nil
}

// LookupWithin returns a unique lookup vindex whose columns all are among
// cols, or nil.
func (t *ShardedTable) LookupWithin(cols []string) *Vindex {
	for i := range t.Lookups {
		if containsAll(cols, t.Lookups[i].Columns) {
			return &t.Lookups[i]
		}
	}
	return nil
}

// LookupOn returns the unique lookup vindex on exactly cols (any order),
// or nil.
func (t *ShardedTable) LookupOn(cols []string) *Vindex {
	for i := range t.Lookups {
		l := &t.Lookups[i]
		if len(l.Columns) == len(cols) && containsAll(cols, l.Columns) {
			return l
		}
	}
	return nil
}

// containsAll reports whether every name of sub is in set (any case); an
// empty sub is in no set, since a vindex maps at least one column.
func containsAll(set, sub []string) bool {
	if len(sub) == 0 {
		return false
	}
	for _, s := range sub {
		found := false
		for _, x := range set {
			if strings.EqualFold(x, s) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
