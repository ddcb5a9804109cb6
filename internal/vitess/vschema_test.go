package vitess

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/lint"
)

// The files of testdata are written after the Vitess documentation and
// examples (examples/demo, the customer/commerce keyspaces of the user
// guides): customer.json as vtctldclient GetVSchema prints it (protojson,
// proto names, unpopulated fields emitted), srv.json as GetSrvVSchema
// prints it, handwritten.json as a user writes one for ApplyVSchema.

func TestShardingOfGetVSchema(t *testing.T) {
	vs, err := Load(filepath.Join("testdata", "customer.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(vs.Keyspaces) != 1 || !vs.Keyspaces[0].Sharded || vs.Keyspaces[0].Name != "" {
		t.Fatalf("keyspaces = %+v, want one sharded keyspace without a name", vs.Keyspaces)
	}
	hash := lint.Vindex{Name: "hash", Type: "hash", Columns: []string{"customer_id"}}
	lookup := lint.Vindex{Name: "corder_keyspace_idx", Type: "consistent_lookup_unique", Columns: []string{"corder_id"}}
	want := map[string]*lint.ShardedTable{
		"customer": {Name: "customer", Primary: hash},
		// The non-unique lookup on (oname, corder_id) refuses nothing.
		"corder": {Name: "corder", Primary: hash, Lookups: []lint.Vindex{lookup}},
		// A lookup as the primary vindex: equal corder_id, one shard.
		"corder_event":       {Name: "corder_event", Primary: lookup},
		"oname_keyspace_idx": {Name: "oname_keyspace_idx", Primary: lint.Vindex{Name: "unicode_loose_md5", Type: "unicode_loose_md5", Columns: []string{"oname"}}},
		"t_payment": {Name: "t_payment", Primary: lint.Vindex{Name: "hash", Type: "hash", Columns: []string{"user_id"}},
			Backfilling: []lint.Vindex{{Name: "t_payment_pay_no_lookup", Type: "consistent_lookup_unique", Columns: []string{"pay_no"}}}},
		// t_channel is a reference table: every shard holds all of it.
	}
	if d := cmp.Diff(want, vs.Sharding().Tables); d != "" {
		t.Errorf("sharding (-want +got):\n%s", d)
	}
}

func TestShardingOfGetSrvVSchema(t *testing.T) {
	vs, err := Load(filepath.Join("testdata", "srv.json"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ks := range vs.Keyspaces {
		names = append(names, ks.Name)
	}
	if d := cmp.Diff([]string{"commerce", "customer"}, names); d != "" {
		t.Errorf("keyspaces (-want +got):\n%s", d)
	}
	want := map[string]*lint.ShardedTable{
		"customer": {Name: "customer", Keyspace: "customer", Primary: lint.Vindex{Name: "xxhash", Type: "xxhash", Columns: []string{"customer_id"}}},
	}
	if d := cmp.Diff(want, vs.Sharding().Tables); d != "" {
		t.Errorf("sharding (-want +got):\n%s", d)
	}
	if ks := vs.Keyspace("PRODUCT"); ks == nil || ks.Name != "commerce" {
		t.Errorf("Keyspace(PRODUCT) = %+v, want commerce", ks)
	}
	if ks := vs.Keyspace("t_unknown"); ks != nil {
		t.Errorf("Keyspace(t_unknown) = %s, want none", ks.Name)
	}
}

func TestShardingOfHandwrittenVSchema(t *testing.T) {
	vs, err := Load(filepath.Join("testdata", "handwritten.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*lint.ShardedTable{
		"t_order": {Name: "t_order",
			Primary: lint.Vindex{Name: "region", Type: "multicol", Columns: []string{"country", "user_id"}},
			Lookups: []lint.Vindex{{Name: "order_no_lookup", Type: "lookup_unique", Columns: []string{"order_no"}}}},
	}
	got := vs.Sharding()
	if d := cmp.Diff(want, got.Tables); d != "" {
		t.Errorf("sharding (-want +got):\n%s", d)
	}
	o := got.Table("T_ORDER")
	for _, c := range []struct {
		cols []string
		want bool
	}{
		{[]string{"order_no"}, true},                // the lookup
		{[]string{"order_no", "channel"}, true},     // holds the lookup's columns
		{[]string{"user_id", "country"}, true},      // the whole primary vindex
		{[]string{"user_id", "trade_no"}, false},    // half of a multicol vindex
		{[]string{"trade_no"}, false},               // neither
		{[]string{"Country", "USER_ID", "x"}, true}, // any case
	} {
		if got := o.UniqueAcrossShards(c.cols); got != c.want {
			t.Errorf("UniqueAcrossShards(%v) = %v, want %v", c.cols, got, c.want)
		}
	}
	if o.LookupOn([]string{"order_no", "channel"}) != nil || o.LookupOn([]string{"ORDER_NO"}) == nil {
		t.Error("LookupOn: want the lookup on exactly (order_no) only")
	}
}

func TestUnshardedKeyspaceShardsNothing(t *testing.T) {
	vs, err := Parse("commerce.json", []byte(`{"sharded": false, "tables": {"t_payment": {}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if sh := vs.Sharding(); sh.Table("t_payment") != nil {
		t.Errorf("an unsharded keyspace shards t_payment: %+v", sh.Table("t_payment"))
	}
}

// TestMalformedVSchema checks that each error names the file, and where the
// decoder can tell, the line and column.
func TestMalformedVSchema(t *testing.T) {
	tests := []struct {
		name, json, want string
	}{
		{"not json", "{\n  \"sharded\": true,\n  \"tables\": {,}\n}", "v.json:3:14: invalid character ','"},
		{"wrong type", "{\n  \"sharded\": \"yes\"\n}", "v.json:2:18: sharded: want true or false, found a JSON string"},
		{"wrong type deep", "{\"sharded\": true, \"tables\": {\"t\": {\"column_vindexes\": [{\"name\": 7}]}}}",
			"v.json:1:65: tables.column_vindexes.name: want a string, found a JSON number"},
		{"array", `[]`, "v.json:1:1: the document: want an object, found a JSON array"},
		{"no vschema", `{"zone1": {}}`, "v.json: not a VSchema: want the JSON that vtctldclient GetVSchema"},
		{"unknown vindex", `{"sharded": true, "tables": {"t": {"column_vindexes": [{"column": "a", "name": "hash"}]}}}`,
			`v.json: keyspace: table t: column_vindexes[0] names vindex "hash", which the keyspace's vindexes do not define`},
		{"no primary vindex", `{"sharded": true, "tables": {"t": {}}}`,
			"v.json: keyspace: table t: a table of a sharded keyspace needs a primary vindex"},
		{"non-unique primary", `{"keyspaces": {"ks": {"sharded": true, "vindexes": {"l": {"type": "consistent_lookup"}}, "tables": {"t": {"column_vindexes": [{"column": "a", "name": "l"}]}}}}}`,
			`v.json: keyspace ks: table t: the primary vindex "l" (column_vindexes[0]) is a consistent_lookup, which is not unique`},
		{"column and columns", `{"sharded": true, "vindexes": {"h": {"type": "hash"}}, "tables": {"t": {"column_vindexes": [{"column": "a", "columns": ["a"], "name": "h"}]}}}`,
			"v.json: keyspace: table t: column_vindexes[0] sets both column and columns"},
		{"no column", `{"sharded": true, "vindexes": {"h": {"type": "hash"}}, "tables": {"t": {"column_vindexes": [{"name": "h"}]}}}`,
			"v.json: keyspace: table t: column_vindexes[0] names no column"},
		{"vindex without type", `{"sharded": true, "vindexes": {"h": {}}}`, `v.json: keyspace: vindex "h" has no type`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("v.json", []byte(tt.json))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to start with %q", err, tt.want)
			}
		})
	}
	if _, err := Parse("v.json", []byte(`{"zone1": {}}`)); !errors.Is(err, ErrNotVSchema) {
		t.Errorf("error = %v, want ErrNotVSchema", err)
	}
	if _, err := Load(filepath.Join("testdata", "absent.json")); err == nil || !strings.Contains(err.Error(), "absent.json") {
		t.Errorf("error = %v, want one naming absent.json", err)
	}
}
