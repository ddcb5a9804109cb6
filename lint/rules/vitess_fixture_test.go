package rules

import (
	"path/filepath"
	"testing"
)

// TestVitessFixtures checks GS005 on the keyspaces of testdata/vitess, each
// a folder with its vschema.json: a UNIQUE index of a sharded table holds
// per shard only, unless it holds the columns of the primary vindex or a
// unique lookup vindex the table owns backs it; an unsharded keyspace is
// one server.
func TestVitessFixtures(t *testing.T) {
	for _, name := range []string{"GS005-sharded", "GS005-unsharded"} {
		t.Run(name, func(t *testing.T) {
			checkFixture(t, filepath.Join("testdata", "vitess", name), func(c string) bool { return c == "GS005" })
		})
	}
}
