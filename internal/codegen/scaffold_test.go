package codegen

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint/rules"
)

func TestNewMigration(t *testing.T) {
	m, err := NewMigration(TableSpec{Name: "t_ticket", Counters: []string{"seats"}, Keys: []string{"ticket_no"}, States: []string{"status"}})
	if err != nil {
		t.Fatal(err)
	}
	files, err := DefaultTemplates().RenderMigration(m, 7)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"000007_create_t_ticket.up.sql": "-- t_ticket, scaffolded by guard gen table: every counter has a CHECK\n" +
			"-- (>= 0), every business key a UNIQUE index, and version serves the\n" +
			"-- compare-and-set of the generated DAO. One DDL statement per file.\n" +
			"CREATE TABLE `t_ticket` (\n" +
			"  `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,\n" +
			"  `ticket_no` VARCHAR(64) NOT NULL,\n" +
			"  `seats` BIGINT NOT NULL DEFAULT 0,\n" +
			"  `status` VARCHAR(32) NOT NULL,\n" +
			"  `version` BIGINT UNSIGNED NOT NULL DEFAULT 0,\n" +
			"  PRIMARY KEY (`id`),\n" +
			"  UNIQUE KEY `uk_t_ticket_ticket_no` (`ticket_no`),\n" +
			"  CONSTRAINT `chk_t_ticket_seats` CHECK (`seats` >= 0)\n" +
			") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n",
		"000007_create_t_ticket.down.sql": "DROP TABLE IF EXISTS `t_ticket`;\n",
	}
	got := map[string]string{}
	for k, v := range files {
		got[k] = string(v)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("migration (-want +got):\n%s", d)
	}
}

func TestNewMigrationErrors(t *testing.T) {
	tests := []struct {
		name string
		spec TableSpec
		want string
	}{
		{"empty name", TableSpec{}, "empty table name"},
		{"quote in name", TableSpec{Name: "t`x"}, "use ASCII letters"},
		{"leading digit", TableSpec{Name: "t", Counters: []string{"1st"}}, `counter name "1st"`},
		{"too long", TableSpec{Name: strings.Repeat("a", 65)}, "longer than 64"},
		{"id taken", TableSpec{Name: "t", Keys: []string{"ID"}}, "business key ID is already the primary key"},
		{"version taken", TableSpec{Name: "t", Counters: []string{"rev"}, VersionColumn: "rev"}, "counter rev is already the version column"},
		{"twice", TableSpec{Name: "t", Counters: []string{"qty"}, States: []string{"QTY"}}, "state QTY is already a counter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewMigration(tt.spec)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewMigration = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestConstraintName(t *testing.T) {
	long := "chk_" + strings.Repeat("t", 60) + "_" + "quantity"
	got := constraintName(long)
	if len(got) != 64 || !strings.HasPrefix(got, long[:55]) {
		t.Errorf("constraintName(%d chars) = %q (%d chars), want 64 chars keeping the start", len(long), got, len(got))
	}
	if other := constraintName(long + "x"); other == got {
		t.Error("two long names shortened to the same name")
	}
	if got := constraintName("chk_t_seats"); got != "chk_t_seats" {
		t.Errorf("short name changed: %q", got)
	}
}

func TestNextMigrationVersion(t *testing.T) {
	dir := t.TempDir()
	if v, err := NextMigrationVersion(filepath.Join(dir, "missing")); err != nil || v != 1 {
		t.Errorf("missing folder: %d, %v; want 1", v, err)
	}
	for _, name := range []string{"000002_a.up.sql", "000002_a.down.sql", "000010_b.up.sql", "notes.txt"} {
		writeFile(t, filepath.Join(dir, name), []byte("SELECT 1;"))
	}
	if v, err := NextMigrationVersion(dir); err != nil || v != 11 {
		t.Errorf("next version = %d, %v; want 11", v, err)
	}
}

// TestScaffoldLintsClean: the scaffolded migration and its DAO, linted
// together, give no finding at all; the DAO has the methods of its columns.
func TestScaffoldLintsClean(t *testing.T) {
	tests := []TableSpec{
		{Name: "t_ticket", Counters: []string{"seats"}, Keys: []string{"ticket_no"}, States: []string{"status"}},
		{Name: "t_wallet", Counters: []string{"balance", "points"}, Keys: []string{"request_id", "wallet_no"}},
		{Name: "t_job", States: []string{"state", "phase"}},
		{Name: "t_plain"},
	}
	pol := policy.Default()
	for _, spec := range tests {
		t.Run(spec.Name, func(t *testing.T) {
			dir := t.TempDir()
			m, err := NewMigration(spec)
			if err != nil {
				t.Fatal(err)
			}
			migs, err := DefaultTemplates().RenderMigration(m, 1)
			if err != nil {
				t.Fatal(err)
			}
			writeFiles(t, filepath.Join(dir, "migrations"), migs)
			up, _ := MigrationFiles(1, spec.Name)
			table, err := TableFromMigration(up, migs[up], spec.Name)
			if err != nil {
				t.Fatal(err)
			}
			if !table.HasUniqueOn("id") || table.Engine != "InnoDB" {
				t.Errorf("table %+v: want InnoDB with primary key id", table)
			}
			data, err := NewData(table, Options{Package: "scaffold", Policy: pol, Counters: nonNilList(spec.Counters), States: nonNilList(spec.States)})
			if err != nil {
				t.Fatal(err)
			}
			if len(data.Counters) != len(spec.Counters) || len(data.States) != len(spec.States) {
				t.Errorf("%d counters and %d states, want %d and %d", len(data.Counters), len(data.States), len(spec.Counters), len(spec.States))
			}
			files, err := Render(data)
			if err != nil {
				t.Fatal(err)
			}
			writeFiles(t, filepath.Join(dir, "dao"), files)
			res, err := driver.Run(driver.Config{Paths: []string{dir}, Policy: pol, Rules: rules.All()})
			if err != nil {
				t.Fatal(err)
			}
			if res.Summary.Tables != 1 {
				t.Errorf("lint replayed %d tables, want 1", res.Summary.Tables)
			}
			for _, f := range res.Findings {
				t.Errorf("%s:%d: %s %s", f.File, f.Line, f.Code, f.Message)
			}
		})
	}
}

func nonNilList(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func TestPolicyNotes(t *testing.T) {
	got := PolicyNotes(TableSpec{Name: "t_x", Counters: []string{"stock", "seats"}, Keys: []string{"order_no", "code"}, States: []string{"status", "phase"}}, policy.Default())
	if len(got) != 3 || !strings.Contains(got[0], "counter seats") || !strings.Contains(got[1], "business key code") || !strings.Contains(got[2], "state phase") {
		t.Errorf("notes = %q, want one each for seats, code and phase", got)
	}
}
