package driver

// The pool of workers the files of a run are read and parsed on.

import (
	"cmp"
	"os"
	"runtime"
	"slices"
	"sync"

	"github.com/guard-sql/guard/internal/sqlparse"
)

// largestFirst returns the indices of paths, the largest file first: a pool
// of workers that takes a big file last works on it alone while the other
// cores wait. Files of equal size (or that cannot be read, which extract
// reports) keep their order.
func largestFirst(paths []string) []int {
	sizes := make([]int64, len(paths))
	order := make([]int, len(paths))
	for i, p := range paths {
		order[i] = i
		if fi, err := os.Stat(p); err == nil {
			sizes[i] = fi.Size()
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(sizes[b], sizes[a]) })
	return order
}

// parallel calls fn for 0..n-1 on a pool of workers, one parser each.
func parallel(n int, fn func(p *sqlparse.Parser, i int)) {
	forEach(n, sqlparse.NewParser, fn)
}

// forEach calls fn for 0..n-1 on a pool of workers, one per core; each
// worker makes its state with start and passes it to every fn it runs.
func forEach[S any](n int, start func() S, fn func(s S, i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < min(runtime.GOMAXPROCS(0), max(n, 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := start()
			for i := range next {
				fn(s, i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// noState is forEach's start for workers that keep none.
func noState() struct{} { return struct{}{} }
