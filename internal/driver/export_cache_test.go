package driver

import (
	"testing"

	"github.com/guard-sql/guard/internal/lintcache"
)

// KeepEveryEntry has the lint cache keep the entries of single files and
// of the host code for a tree of any size, for the tests that read them
// back, and returns the undo.
func KeepEveryEntry() (restore func()) {
	old := smallTree
	smallTree = 0
	return func() { smallTree = old }
}

// KeepSmallTreesWhole undoes KeepEveryEntry until the returned function
// is called: a small tree is kept by its result alone.
func KeepSmallTreesWhole() (restore func()) {
	old := smallTree
	smallTree = 512 << 10
	return func() { smallTree = old }
}

// OpenCache opens a lint cache in dir for a test and closes it when the
// test ends, so that no store a run began in the background writes into
// a folder the test is removing.
func OpenCache(t testing.TB, dir string) *lintcache.Cache {
	c := lintcache.Open(dir, lintcache.Options{Version: "test"})
	t.Cleanup(c.Close)
	return c
}

func openCache(t testing.TB, dir string) *lintcache.Cache { return OpenCache(t, dir) }
