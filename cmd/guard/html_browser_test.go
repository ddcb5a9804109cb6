package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/guard-sql/guard/internal/browsertest"
	"github.com/guard-sql/guard/internal/dbtest"
)

// The browser of the test binary closes with it.
func init() { dbtest.AtExit(browsertest.Close) }

// dom is what domScript reads of a report in the browser.
type dom struct {
	// Scripts counts the script elements; Text is the page's text as
	// rendered.
	Scripts int
	Text    string
	// Codes are the finding codes of the elements that carry one;
	// Findings counts the findings listed.
	Codes    []string
	Findings int
	// Charts are the svg charts, each with its series.
	Charts []struct {
		Class  string
		Series []string
	}
	// Targets are the rows of the targets' table, in order.
	Targets []string
	// OversoldColor is the computed colour of the first oversold cell.
	OversoldColor string
}

// domScript reads a report's dom in the page.
const domScript = `(() => ({
	Scripts: document.querySelectorAll("script").length,
	Text: document.body.innerText,
	Codes: [...new Set([...document.querySelectorAll("[data-code]")].map(e => e.dataset.code))],
	Findings: document.querySelectorAll("li.finding").length,
	Charts: [...document.querySelectorAll("svg.chart")].map(s => ({
		Class: s.getAttribute("class"),
		Series: [...s.querySelectorAll("g.series")].map(g => g.dataset.series),
	})),
	Targets: [...document.querySelectorAll("tr[data-target]")].map(r => r.dataset.target),
	OversoldColor: (e => e ? getComputedStyle(e).color : "")(document.querySelector(".oversold")),
}))()`

// openReport writes page to a file, opens it in the browser, fails t on
// any console error or request beyond the file, and returns its dom.
func openReport(t *testing.T, name, page string) dom {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	var d dom
	browsertest.Open(t, path, domScript, &d).Check(t)
	if d.Scripts != 0 {
		t.Errorf("%s: %d script elements", name, d.Scripts)
	}
	return d
}

// codesOf are the finding codes of a json report, sorted.
func codesOf(t *testing.T, out string) []string {
	t.Helper()
	var doc struct {
		Findings []struct {
			Code string `json:"code"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	var codes []string
	for _, f := range doc.Findings {
		if !slices.Contains(codes, f.Code) {
			codes = append(codes, f.Code)
		}
	}
	slices.Sort(codes)
	return codes
}

// hasCodes fails t unless every code is in the dom.
func hasCodes(t *testing.T, d dom, codes []string) {
	t.Helper()
	if len(codes) == 0 {
		t.Fatal("the run found nothing: no code to look for")
	}
	for _, c := range codes {
		if !slices.Contains(d.Codes, c) {
			t.Errorf("code %s of the run is not in the page (page has %v)", c, d.Codes)
		}
	}
}

// Replacements that make a live report the same on every run.
var (
	generatedRE = regexp.MustCompile(`generated \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
	portRE      = regexp.MustCompile(`(127\.0\.0\.1|localhost|\[::1\]):\d+`)
	mariadbRE   = regexp.MustCompile(`MariaDB \d+\.\d+\.\d+`)
)

// normalized is page with the version, the time it was made, the ports,
// the server's version and the databases' names (given as name, stand-in
// pairs) replaced.
func normalized(page string, names ...string) string {
	page = strings.ReplaceAll(page, "guard "+guardVersion(), "guard VERSION")
	page = generatedRE.ReplaceAllString(page, "generated TIME")
	page = portRE.ReplaceAllString(page, "$1:PORT")
	page = mariadbRE.ReplaceAllString(page, "MariaDB X.Y.Z")
	for i := 0; i+1 < len(names); i += 2 {
		page = strings.ReplaceAll(page, names[i], names[i+1])
	}
	return page
}

// TestHTMLLintShop renders the lint of the example shop: its golden, and in
// the browser every code of the run, every finding and nothing loaded.
func TestHTMLLintShop(t *testing.T) {
	t.Chdir("../..")
	page, stderr, code := guard(t, "lint", "--format", "html", "examples/shop")
	if code != exitFindings {
		t.Fatalf("exit %d; stderr: %s", code, stderr)
	}
	golden(t, "shop.html", normalized(page))
	out, _, _ := guard(t, "lint", "--format", "json", "examples/shop")
	d := openReport(t, "shop.html", page)
	hasCodes(t, d, codesOf(t, out))
	var doc struct{ Findings []json.RawMessage }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if d.Findings != len(doc.Findings) {
		t.Errorf("the page lists %d findings, the run found %d", d.Findings, len(doc.Findings))
	}
}

// hostile is markup a report must show as text.
const hostile = `<script>alert(1)</script>`

// TestHTMLLintHostileInput lints a file whose name and SQL hold markup:
// the page shows them as text and holds no script.
func TestHTMLLintHostileInput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	files := map[string]string{
		"migrations/001_init.up.sql": "CREATE TABLE t_stock (id BIGINT PRIMARY KEY, stock INT NOT NULL, note VARCHAR(64)) ENGINE=InnoDB;\n",
		"<script>x.sql":              "UPDATE t_stock SET stock = stock - 1, note = '" + hostile + "' WHERE id = 1;\n",
	}
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	page, stderr, code := guard(t, "lint", "--format", "html", ".")
	if code != exitFindings {
		t.Fatalf("exit %d; stderr: %s", code, stderr)
	}
	d := openReport(t, "lint.html", page)
	for _, want := range []string{"<script>x.sql", "note = '" + hostile + "'"} {
		if !strings.Contains(d.Text, want) {
			t.Errorf("the page does not show %q as text:\n%s", want, d.Text)
		}
	}
	if !slices.Contains(d.Codes, "GQ002") {
		t.Errorf("codes %v lack GQ002", d.Codes)
	}
}

// auditTables are the schema the audit tests read: a counter without a
// CHECK, a business key without UNIQUE, and a table named with markup.
var auditTables = []string{
	"CREATE TABLE t_stock (id BIGINT PRIMARY KEY, stock INT NOT NULL DEFAULT 0, order_no VARCHAR(32) NOT NULL, version BIGINT NOT NULL DEFAULT 0) ENGINE=InnoDB",
	"CREATE TABLE `" + hostile + "` (id BIGINT PRIMARY KEY, quantity INT NOT NULL DEFAULT 0, version BIGINT NOT NULL DEFAULT 0) ENGINE=InnoDB",
}

// TestHTMLAudit renders the audit of a throwaway MariaDB: its golden, and
// in the browser every code of the run, the target's row and the table
// named with markup shown as text.
func TestHTMLAudit(t *testing.T) {
	t.Chdir("../..")
	db := dbtest.MySQL(t)
	db.Exec(t, auditTables...)
	run := guardAudit(t, db.Password, "--format", "html", "--dsn", db.DSN)
	if run.code != exitFindings {
		t.Fatalf("exit %d; stderr: %s", run.code, dbtest.Redact(run.errOut))
	}
	golden(t, "audit.html", normalized(run.out, db.Name, "DB"))
	out := guardAudit(t, db.Password, "--format", "json", "--dsn", db.DSN).out
	d := openReport(t, "audit.html", run.out)
	hasCodes(t, d, codesOf(t, out))
	if len(d.Targets) != 1 || !strings.HasSuffix(d.Targets[0], "/"+db.Name) {
		t.Errorf("target rows %v, want the one database", d.Targets)
	}
	if !strings.Contains(d.Text, hostile) {
		t.Errorf("the table %s is not shown as text:\n%s", hostile, d.Text)
	}
}

// TestHTMLAuditFleet renders the audit of a fleet of two databases on one
// MariaDB that flushes its log once a second, and a third target the
// server refuses, named with markup: a row per target, the refused one
// first with the server's message as text, and the server's durability
// findings once, under the server.
func TestHTMLAuditFleet(t *testing.T) {
	t.Chdir("../..")
	a := dbtest.PrivateMySQLWith(t, "--innodb-flush-log-at-trx-commit=2")
	// The page orders targets of equal counts by name, and the names are
	// random: b is the one named after a, for a golden of one order.
	b := a.AnotherDB(t)
	for i := 0; b.Name < a.Name && i < 64; i++ {
		b = a.AnotherDB(t)
	}
	a.Exec(t, auditTables...)
	b.Exec(t, auditTables[0])
	refused := strings.Replace(a.DSN, "/"+a.Name, "/<script>x", 1)
	targets := filepath.Join(t.TempDir(), "shards.txt")
	if err := os.WriteFile(targets, []byte(a.DSN+"\n"+b.DSN+"\n"+refused+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	run := guardAudit(t, a.Password, "--format", "html", "--no-data", "--targets", targets)
	if run.code != exitRuntime {
		t.Fatalf("exit %d, want %d (a target not audited); stderr: %s", run.code, exitRuntime, dbtest.Redact(run.errOut))
	}
	golden(t, "audit_fleet.html", normalized(run.out, a.Name, "DB_A", b.Name, "DB_B"))
	out := guardAudit(t, a.Password, "--format", "json", "--no-data", "--targets", targets).out
	d := openReport(t, "fleet.html", run.out)
	codes := codesOf(t, out)
	hasCodes(t, d, codes)
	if !slices.Contains(codes, "GS011") {
		t.Errorf("the fleet's codes %v lack GS011", codes)
	}
	if len(d.Targets) != 3 || !strings.HasSuffix(d.Targets[0], "/<script>x") {
		t.Errorf("target rows %v, want three, the refused one first", d.Targets)
	}
	if !strings.Contains(d.Text, "'<script>x'") {
		t.Errorf("the server's message naming the database is not shown as text:\n%s", d.Text)
	}
	if n := strings.Count(run.out, `<tr data-server="`+a.Addr+`" data-code="GS011">`); n != 1 {
		t.Errorf("%d GS011 rows for %s in the servers' table, want 1", n, a.Addr)
	}
}

// drillStrategies are those of the drill's golden: naive is left out, as
// whether and how far it oversells changes from run to run.
var drillStrategies = []string{"for-update", "conditional", "cas", "lock-cas"}

// svgRE and numberRE make a drill's page the same on every run: its
// charts become the list of their series, its numbers N.
var (
	svgRE     = regexp.MustCompile(`(?s)<svg class="([^"]*)".*?</svg>`)
	seriesRE  = regexp.MustCompile(`data-series="([^"]*)"`)
	numberRE  = regexp.MustCompile(`\b\d+(\.\d+)?`)
	textRE    = regexp.MustCompile(`>[^<]+<`)
	scratchRE = regexp.MustCompile(`guard_drill_[0-9a-f]+`)
	distRE    = regexp.MustCompile(`(?s)(<table class="distribution">).*?(</table>)`)
)

// normalizedDrill is a drill's page with every measure replaced: the
// charts by their series, the distribution's table (its columns are the
// latencies seen) by nothing, the scratch table's name and every number
// in the text of the body by N.
func normalizedDrill(page string, names ...string) string {
	page = normalized(page, names...)
	page = svgRE.ReplaceAllStringFunc(page, func(svg string) string {
		var series []string
		for _, m := range seriesRE.FindAllStringSubmatch(svg, -1) {
			series = append(series, m[1])
		}
		return `<svg class="` + svgRE.FindStringSubmatch(svg)[1] + `">series: ` + strings.Join(series, ", ") + `</svg>`
	})
	page = distRE.ReplaceAllString(page, "$1$2")
	page = scratchRE.ReplaceAllString(page, "guard_drill_N")
	head, body, _ := strings.Cut(page, "<body>")
	return head + "<body>" + textRE.ReplaceAllStringFunc(body, func(text string) string { return numberRE.ReplaceAllString(text, "N") })
}

// TestHTMLDrill renders a drill against a real MariaDB and Redis: its
// golden, and in the browser the charts with a series per strategy (the
// lock chart one per strategy that took locks), the TTL advice and the
// table of every strategy.
func TestHTMLDrill(t *testing.T) {
	t.Chdir("../..")
	db := dbtest.MySQL(t)
	db.Exec(t, drillTable, `INSERT INTO t_stock (sku, stock) VALUES ('a', 3)`)
	srv := dbtest.Redis(t)
	page, errOut, code := guardDrill(t, db.Password, "--dsn", db.DSN, "--redis", srv.Addr(), "--table", "t_stock",
		"--workers", "16", "--conns", "8", "--stock", "30", "--strategies", strings.Join(drillStrategies, ","), "--format", "html")
	if code != exitClean {
		t.Fatalf("exit %d; stderr:\n%s", code, dbtest.Redact(errOut))
	}
	golden(t, "drill.html", normalizedDrill(page, db.Name, "DB"))
	d := openReport(t, "drill.html", page)
	want := map[string][]string{"throughput": drillStrategies, "latency": drillStrategies, "distribution": drillStrategies, "locks": {"lock-cas"}}
	seen := map[string]bool{}
	for _, c := range d.Charts {
		kind := strings.TrimPrefix(c.Class, "chart ")
		seen[kind] = true
		if !slices.Equal(c.Series, want[kind]) {
			t.Errorf("chart %s has series %v, want %v", kind, c.Series, want[kind])
		}
	}
	for kind := range want {
		if !seen[kind] {
			t.Errorf("no %s chart (charts: %+v)", kind, d.Charts)
		}
	}
	for _, s := range drillStrategies {
		if !strings.Contains(d.Text, s+"\t") {
			t.Errorf("the results table has no row for %s", s)
		}
	}
	if !strings.Contains(d.Text, "lock-cas held the lock p50") || !strings.Contains(d.Text, "the worst critical section") {
		t.Errorf("the TTL advice is not shown:\n%s", d.Text)
	}
}

// TestHTMLMigrateDryRun renders a dry run of up on a throwaway MariaDB:
// a CHECK that rows already break (the run would be refused) and a column
// whose comment holds markup. Its golden, and in the browser every pending
// file, the refusal, and the comment shown as text.
func TestHTMLMigrateDryRun(t *testing.T) {
	t.Chdir("../..")
	db := dbtest.MySQL(t)
	dir := t.TempDir()
	files := map[string]string{
		"001_stock.up.sql":   "CREATE TABLE t_stock (id BIGINT PRIMARY KEY, stock INT NOT NULL) ENGINE=InnoDB;\n",
		"001_stock.down.sql": "DROP TABLE t_stock;\n",
		"002_check.up.sql":   "ALTER TABLE t_stock ADD CONSTRAINT chk_stock_nonneg CHECK (stock >= 0), ALGORITHM=COPY;\n",
		"002_check.down.sql": "ALTER TABLE t_stock DROP CONSTRAINT chk_stock_nonneg;\n",
		"003_note.up.sql":    "ALTER TABLE t_stock ADD COLUMN note VARCHAR(64) NULL COMMENT '" + hostile + "', ALGORITHM=INSTANT;\n",
		"003_note.down.sql":  "ALTER TABLE t_stock DROP COLUMN note;\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, errOut, code := guard(t, "migrate", "goto", "1", "--dsn", db.DSN, "--dir", dir); code != exitClean {
		t.Fatalf("goto 1: exit %d\n%s", code, dbtest.Redact(errOut))
	}
	db.Exec(t, "INSERT INTO t_stock VALUES (1, 5), (2, -3)")
	page, errOut, code := guard(t, "migrate", "up", "--dry-run", "--format", "html", "--dsn", db.DSN, "--dir", dir)
	if code != exitRuntime {
		t.Fatalf("exit %d, want %d (the preflight refuses); stderr:\n%s", code, exitRuntime, dbtest.Redact(errOut))
	}
	if strings.Contains(page, db.Password) {
		t.Fatal("the password appears in the page")
	}
	golden(t, "migrate_dryrun.html", normalized(page, db.Name, "DB", dir, "migrations"))
	d := openReport(t, "dryrun.html", page)
	for _, want := range []string{"002_check.up.sql:1", "003_note.up.sql:1", "FAIL", "would be refused", "COMMENT '" + hostile + "'"} {
		if !strings.Contains(d.Text, want) {
			t.Errorf("the page does not show %q:\n%s", want, d.Text)
		}
	}
	if !strings.Contains(d.Text, db.Name) {
		t.Errorf("the page does not name the target %s:\n%s", db.Name, d.Text)
	}

	// html is a dry run's report, and only up, down and goto have one.
	for args, want := range map[string]string{"up": "--format html is the report of a dry run: add --dry-run", "status": `--format "html"`, "force 1": `--format "html"`} {
		_, errOut, code := guard(t, append(append([]string{"migrate"}, strings.Fields(args)...), "--format", "html", "--dsn", db.DSN, "--dir", dir)...)
		if code != exitInput || !strings.Contains(errOut, want) {
			t.Errorf("migrate %s --format html: exit %d, want %d and %q\n%s", args, code, exitInput, want, dbtest.Redact(errOut))
		}
	}
}
