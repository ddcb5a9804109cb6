package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/lintcache"
)

// cacheFlags are the flags of the commands that lint, and of guard cache.
func cacheFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cache-dir", Usage: "folder of the lint cache (default: $XDG_CACHE_HOME/guard, else $HOME/.cache/guard)", TakesFile: true},
		&cli.BoolFlag{Name: "no-cache", Usage: "lint every file again, neither reading nor writing the cache"},
		&cli.StringFlag{
			Name: "cache-max-size", Value: "200MB", Usage: "size past which the cache removes the entries used longest ago (KB, MB, GB: powers of 1024)",
			Action: func(_ *cli.Context, v string) error {
				_, err := parseSize(v)
				return err
			},
		},
	}
}

// cacheDir returns the cache's folder: --cache-dir, else the default.
func cacheDir(c *cli.Context) (string, error) {
	if d := c.String("cache-dir"); d != "" {
		return d, nil
	}
	return lintcache.DefaultDir()
}

// openCache returns the lint cache the flags ask for; nil with --no-cache,
// or when there is no folder for it, which is a warning: the cache never
// fails a run, it only makes one faster.
func openCache(c *cli.Context) *lintcache.Cache {
	if c.Bool("no-cache") {
		return nil
	}
	warn := func(msg string) { fmt.Fprintf(c.App.ErrWriter, "guard: warning: %s\n", msg) }
	dir, err := cacheDir(c)
	if err != nil {
		warn(fmt.Sprintf("no folder for the cache (%v): linting without it; --cache-dir names one", err))
		return nil
	}
	limit, _ := parseSize(c.String("cache-max-size")) // its flag checked it
	return lintcache.Open(dir, lintcache.Options{Limit: limit, Version: guardVersion(), Warn: warn})
}

// parseSize reads a size such as 200MB, 1GB or 512000 (bytes).
func parseSize(v string) (int64, error) {
	s := strings.ToUpper(strings.TrimSpace(v))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}} {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, inputErrf("--cache-max-size %q: want a size above zero such as 200MB or 1GB", v)
	}
	return n * mult, nil
}

func cacheCommand() *cli.Command {
	return &cli.Command{
		Name:  "cache",
		Usage: "manage guard lint's cache",
		Description: `guard lint keeps what it found for the next run, under $XDG_CACHE_HOME/guard
(else $HOME/.cache/guard, or --cache-dir): a file whose content, policy,
schema and inferred vocabulary are unchanged is not parsed and judged again,
and an unchanged tree is read back whole. The report is the same with the
cache as with --no-cache. The cache keeps at most --cache-max-size (default
200MB), removing the entries used longest ago first.`,
		Subcommands: []*cli.Command{{
			Name:      "clean",
			Usage:     "remove every entry of the lint cache",
			ArgsUsage: " ",
			Description: `Removes the entries guard lint wrote below the cache folder, and nothing else
there; prints how many files and bytes went. A run going on at the same time
misses what it would have read, and finds the same.

Examples:
   guard cache clean
   guard cache clean --cache-dir .guard-cache   # the folder a CI job restores`,
			Flags:  append(textOnlyFlags.flags(), cacheFlags()[0]),
			Action: runCacheClean,
		}},
		HideHelpCommand: true,
	}
}

func runCacheClean(c *cli.Context) error {
	if c.NArg() > 0 {
		return inputErrf("guard cache clean takes no arguments, got %q", c.Args().First())
	}
	dir, err := cacheDir(c)
	if err != nil {
		return inputErrf("no folder for the cache (%v): name it with --cache-dir", err)
	}
	files, size, err := lintcache.Clean(dir)
	if err != nil {
		return fmt.Errorf("clean the cache in %s: %w", dir, err)
	}
	fmt.Fprintf(c.App.Writer, "removed %d file(s), %s, from %s\n", files, humanSize(size), dir)
	return nil
}

// humanSize prints a size as the flags take it.
func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1fGB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1fMB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1fKB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%dB", n)
}

// printed is guard lint's own entry in the cache (driver.Output): what a
// run printed of a result — the report on stdout, the notes on stderr —
// under the run's key and what else shaped the text, and printed again by
// the next run of the same key instead of reading the result back and
// writing its report anew.
type printed struct {
	cache *lintcache.Cache
	shape lintcache.Key // the format, the colour, the --schema named
	// out and errOut are where Serve prints; worst and err are what it
	// printed: the worst severity among the findings, and a write's error.
	out, errOut io.Writer
	worst       int
	err         error
	// key is the run's key once Keep said the result is the one it names.
	key  lintcache.Key
	keep bool
	// notes records what the run writes on stderr when it keeps; entry is
	// the entry its report is written to as it is printed.
	notes strings.Builder
	entry *lintcache.Entry
}

func newPrinted(c *cli.Context, cache *lintcache.Cache, format string, color bool) *printed {
	shape := lintcache.NewKey("printed").String(format).Bool(color).String(c.String("schema")).Sum()
	return &printed{cache: cache, shape: shape, out: c.App.Writer, errOut: c.App.ErrWriter}
}

func (p *printed) entryKey(run lintcache.Key) lintcache.Key {
	return lintcache.NewKey("report").Key(run).Key(p.shape).Sum()
}

// Serve implements driver.Output: it prints what a run of the same key
// printed, when the cache holds it whole.
func (p *printed) Serve(run lintcache.Key) bool {
	worst, ok, err := p.cache.ServeReport(p.entryKey(run), p.out, p.errOut)
	p.worst, p.err = worst, err
	return ok
}

// Keep implements driver.Output.
func (p *printed) Keep(run lintcache.Key) { p.key, p.keep = run, true }

// notesTo returns where the run writes its notes: errOut, recorded besides
// when the run keeps what it prints.
func (p *printed) notesTo(errOut io.Writer) io.Writer {
	if p == nil || !p.keep {
		return errOut
	}
	return io.MultiWriter(errOut, &p.notes)
}

// reportTo returns where the run prints its report, once its notes are
// written: out, and the entry besides when the run keeps what it prints,
// headed by worst, the highest rank among the findings (-1 for none).
func (p *printed) reportTo(out io.Writer, worst int) io.Writer {
	if p == nil || !p.keep {
		return out
	}
	if p.entry = p.cache.Create(lintcache.KindReport, p.entryKey(p.key)); p.entry == nil {
		return out
	}
	lintcache.StartReport(p.entry, worst, p.notes.String())
	return io.MultiWriter(out, p.entry)
}

// done puts the entry in place once the report is printed, or drops it
// when printing failed.
func (p *printed) done(err error) {
	if p == nil || p.entry == nil {
		return
	}
	if err != nil {
		p.entry.Abort()
		return
	}
	p.entry.Commit()
}
