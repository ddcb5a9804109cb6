package codegen

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/templates"
)

func TestGoDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{3 * time.Second, "3 * time.Second"},
		{500 * time.Millisecond, "500 * time.Millisecond"},
		{1500 * time.Millisecond, "1500 * time.Millisecond"},
		{2 * time.Minute, "2 * time.Minute"},
		{90 * time.Second, "90 * time.Second"},
		{time.Hour, "1 * time.Hour"},
		{1500 * time.Microsecond, "1500 * time.Microsecond"},
		{7, "7 * time.Nanosecond"},
		{0, "0 * time.Nanosecond"},
	}
	for _, tt := range tests {
		if got := goDuration(tt.d); got != tt.want {
			t.Errorf("goDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

// TestTemplateNamesMatchEmbedded keeps TemplateNames and templates/ in step.
func TestTemplateNamesMatchEmbedded(t *testing.T) {
	entries, err := fs.ReadDir(templates.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	var embedded []string
	for _, e := range entries {
		embedded = append(embedded, e.Name())
	}
	if d := cmp.Diff(TemplateNames(), embedded); d != "" {
		t.Errorf("TemplateNames vs templates/*.tmpl (-names +embedded):\n%s", d)
	}
}

func inventoryData(t *testing.T) *Data {
	t.Helper()
	d, err := NewData(tableOf(t, `CREATE TABLE t_inventory (id BIGINT AUTO_INCREMENT PRIMARY KEY,
		inventory INT NOT NULL, status VARCHAR(8) NOT NULL, version INT NOT NULL DEFAULT 0)`), Options{Package: "inv"})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestLoadTemplates: a customised template replaces the embedded one of its
// name, the others stay; mistakes are reported with the template's name.
func TestLoadTemplates(t *testing.T) {
	custom := func(t *testing.T, files map[string]string) string {
		dir := t.TempDir()
		for name, text := range files {
			writeFile(t, filepath.Join(dir, name), []byte(text))
		}
		return dir
	}
	embeddedErrors, err := fs.ReadFile(templates.FS, "errors.go.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("override", func(t *testing.T) {
		text := strings.Replace(string(embeddedErrors), "package {{.Package}}\n", "package {{.Package}}\n\n// Customised for {{.Table}}.\n", 1)
		dir := custom(t, map[string]string{"errors.go.tmpl": text, "README.md": "not a template"})
		tm, err := LoadTemplates(dir)
		if err != nil {
			t.Fatal(err)
		}
		files, err := tm.Render(inventoryData(t))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(files["guard_errors.go"]), "// Customised for t_inventory.") {
			t.Errorf("customised template not used:\n%s", files["guard_errors.go"])
		}
		def, err := Render(inventoryData(t))
		if err != nil {
			t.Fatal(err)
		}
		if string(files["guard_lock.go"]) != string(def["guard_lock.go"]) {
			t.Error("a template missing from the folder did not keep its embedded version")
		}
	})
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"unknown name", map[string]string{"eror.go.tmpl": "x"}, "unknown template eror.go.tmpl"},
		{"parse error", map[string]string{"dao.go.tmpl": "{{if}}"}, "dao.go.tmpl:1"},
		{"unknown field", map[string]string{"dao.go.tmpl": Header + "\npackage {{.Nope}}\n"}, "can't evaluate field Nope"},
		{"invalid Go", map[string]string{"dao.go.tmpl": Header + "\npackage {{.Package}}\nfunc {\n"}, "template dao.go.tmpl renders invalid Go for inventory_dao.go"},
		{"no header", map[string]string{"dao.go.tmpl": "package {{.Package}}\n"}, "must start with the line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tm, err := LoadTemplates(custom(t, tt.files))
			if err == nil {
				_, err = tm.Render(inventoryData(t))
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	if _, err := LoadTemplates(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing folder loaded")
	}
}

// TestWrite: generated files are replaced, hand-written ones never.
func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	files := map[string][]byte{"a.go": []byte(Header + "\npackage a\n"), "notes.sql": []byte("SELECT 1;\n")}
	if err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
	files["a.go"] = []byte(Header + "\npackage a\n\n// v2\n")
	if err := Write(dir, files); err != nil {
		t.Fatalf("rewrite of a generated file: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.go")); string(b) != string(files["a.go"]) {
		t.Errorf("a.go = %q, want the new version", b)
	}
	writeFile(t, filepath.Join(dir, "b.go"), []byte("package a\n\n// mine\n"))
	err := Write(dir, map[string][]byte{"b.go": []byte(Header + "\npackage a\n")})
	if !errors.Is(err, ErrHandWritten) {
		t.Errorf("overwrite of a hand-written file: %v, want ErrHandWritten", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b.go")); string(b) != "package a\n\n// mine\n" {
		t.Errorf("hand-written file changed: %q", b)
	}
}
