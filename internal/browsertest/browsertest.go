// Package browsertest opens guard's html reports in headless Chromium and
// tells what the page did there: its console errors and warnings, its
// uncaught exceptions, the browser's own errors about it (a refused load, a
// Content Security Policy violation), every network request it made, and
// what a test's script reads of its DOM.
//
// A test binary starts one browser, the first time a test asks for it, and
// every test opens its pages in tabs of that browser; call Close from
// TestMain once the tests ran. Without Chromium a test is skipped when the
// CI environment variable is unset, and fails when it is set: CI installs
// Chromium (make deps), so a browser test must never be skipped there.
package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Binary is the program of the Debian package chromium.
const Binary = "chromium"

// pageTimeout bounds the load and the reading of one page.
const pageTimeout = 30 * time.Second

// shared is the browser of the test binary.
var shared struct {
	once          sync.Once
	ctx           context.Context
	cancelAlloc   context.CancelFunc
	cancelBrowser context.CancelFunc
	err           error
}

// start starts the browser: headless, without the sandbox when running
// as root (which Chromium refuses otherwise), in a profile of its own.
func start() {
	path, err := exec.LookPath(Binary)
	if err != nil {
		shared.err = err
		return
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("no-proxy-server", true),
	)
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelBrowser := chromedp.NewContext(alloc)
	// The first run starts the browser, for as long as ctx lives.
	if err := chromedp.Do(ctx); err != nil {
		cancelBrowser()
		cancelAlloc()
		shared.err = fmt.Errorf("start %s: %w", path, err)
		return
	}
	shared.ctx, shared.cancelAlloc, shared.cancelBrowser = ctx, cancelAlloc, cancelBrowser
}

// Close stops the browser, if one was started.
func Close() {
	if shared.cancelBrowser != nil {
		shared.cancelBrowser()
		shared.cancelAlloc()
	}
}

// browser returns the context of the shared browser, or ends t: skipped
// without Chromium outside CI, failed inside.
func browser(t testing.TB) context.Context {
	t.Helper()
	shared.once.Do(start)
	if shared.err == nil {
		return shared.ctx
	}
	if os.Getenv("CI") == "" {
		t.Skipf("no browser: %v (install it with apt-get install %s, or make deps)", shared.err, Binary)
	}
	t.Fatalf("no browser under CI=%s: %v (make deps installs the package %s)", os.Getenv("CI"), shared.err, Binary)
	return nil
}

// Page is what a page did while it loaded and was read.
type Page struct {
	// URL is the file:// address the page was opened at.
	URL string
	// Problems are its console errors and warnings, its uncaught
	// exceptions and the browser's errors and warnings about it.
	Problems []string
	// Requests are the URLs of every request it made, the page's own
	// first.
	Requests []string
}

// Open loads the html file in a new tab of the shared browser, waits for
// it to load, then evaluates script in it (an expression whose value is
// JSON-encoded into out, when out is not nil) and returns what the page did.
func Open(t testing.TB, file, script string, out any) *Page {
	t.Helper()
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	p := &Page{URL: (&url.URL{Scheme: "file", Path: abs}).String()}
	tab, closeTab := chromedp.NewContext(browser(t))
	defer closeTab()
	var mu sync.Mutex
	record := func(list *[]string, s string) {
		mu.Lock()
		*list = append(*list, s)
		mu.Unlock()
	}
	if err := chromedp.Listen(tab, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				record(&p.Problems, "console."+string(ev.Type)+": "+args(ev.Args))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			what := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				what += " " + d.Exception.Description
			}
			record(&p.Problems, "exception: "+what)
		case *log.EventEntryAdded:
			if e := ev.Entry; e.Level == log.EntryLevelError || e.Level == log.EntryLevelWarning {
				record(&p.Problems, "browser "+string(e.Level)+": "+e.Text+" "+e.URL)
			}
		case *network.EventRequestWillBeSent:
			record(&p.Requests, ev.Request.URL)
		}
	}); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	ctx, cancel := context.WithTimeout(tab, pageTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("enable the network events: %v", err)
	}
	if _, err := chromedp.Call(ctx, log.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("enable the log events: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(p.URL)); err != nil {
		t.Fatalf("load %s: %v", p.URL, err)
	}
	if script != "" {
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](script))
		if err != nil {
			t.Fatalf("evaluate in %s: %v", p.URL, err)
		}
		if out != nil {
			if err := json.Unmarshal(raw, out); err != nil {
				t.Fatalf("decode what the script read: %v\n%s", err, raw)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return &Page{URL: p.URL, Problems: append([]string(nil), p.Problems...), Requests: append([]string(nil), p.Requests...)}
}

// args prints a console call's arguments.
func args(objs []*runtime.RemoteObject) string {
	var parts []string
	for _, o := range objs {
		switch {
		case len(o.Value) > 0:
			var s string
			if json.Unmarshal(o.Value, &s) != nil {
				s = string(o.Value)
			}
			parts = append(parts, s)
		case o.Description != "":
			parts = append(parts, o.Description)
		default:
			parts = append(parts, string(o.Type))
		}
	}
	return strings.Join(parts, " ")
}

// Check fails t when the page had a problem or requested anything but
// itself.
func (p *Page) Check(t testing.TB) {
	t.Helper()
	for _, s := range p.Problems {
		t.Errorf("%s: %s", p.URL, s)
	}
	for _, u := range p.Requests {
		if u != p.URL {
			t.Errorf("%s requested %s: a report must load nothing but itself", p.URL, u)
		}
	}
	if len(p.Requests) == 0 {
		t.Errorf("%s: no request seen, not even the page's own: the network events were not recorded", p.URL)
	}
}
