package migrations

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/plan"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint/rules"
)

const shopDir = "../examples/shop/migrations"

// TestUpToDate plans the example shop again, as `guard plan --dir
// examples/shop/migrations --out migrations` does on a clean checkout, and
// requires the embedded files to be exactly what it writes.
func TestUpToDate(t *testing.T) {
	pol, err := policy.Load("../policies.toml")
	if err != nil {
		t.Fatal(err)
	}
	off, err := plan.LoadDirs(shopDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range off.Errors {
		t.Errorf("replay of the shop: %v", e)
	}
	srv, _ := plan.OfflineServer(plan.FlavorMariaDB)
	steps := plan.Plan(off.Schema, pol, srv, plan.Options{Triggers: off.Triggers})
	next, width, err := plan.NextVersion(shopDir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, f := range plan.Files(steps, next, width) {
		want[f.Name] = string(f.Data)
	}
	got := map[string]string{}
	err = fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(FS, p)
		got[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("the shop needs no guard: the reference migrations would be empty")
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("reference migrations are out of date (-plan +embedded); regenerate them as migrations.go says:\n%s", d)
	}
}

// TestLintClean lints the shop's migrations followed by the reference ones
// with every rule: nothing is found in the reference files (GM001–GM003
// included), and none of the schema rules the plan answers finds anything
// left in the shop.
func TestLintClean(t *testing.T) {
	pol, err := policy.Load("../policies.toml")
	if err != nil {
		t.Fatal(err)
	}
	// Absolute paths, so that the shop's folder sorts, and replays, first.
	shop, err := filepath.Abs(shopDir)
	if err != nil {
		t.Fatal(err)
	}
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	res, err := driver.Run(driver.Config{Paths: []string{shop, here}, Policy: pol, Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	planned := map[string]bool{"GS003": true, "GS004": true, "GS005": true, "GS006": true, "GS007": true}
	var found []string
	for _, f := range res.Findings {
		if !filepath.IsAbs(f.File) && filepath.Dir(f.File) == "." || planned[f.Code] {
			found = append(found, f.File+":"+fmt.Sprint(f.Line)+": "+f.Code+" "+f.Message)
		}
	}
	if len(found) > 0 {
		t.Errorf("findings:\n%s", strings.Join(found, "\n"))
	}
	if res.Summary.Files < 6+3 {
		t.Errorf("linted %d files, want the shop's 6 migrations and the 3 reference ones", res.Summary.Files)
	}
}
