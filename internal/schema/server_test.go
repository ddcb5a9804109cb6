package schema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseServer(t *testing.T) {
	tests := []struct {
		version string
		want    Server
	}{
		{"10.11.19-MariaDB-0+deb12u1", Server{Flavor: FlavorMariaDB, Major: 10, Minor: 11, Patch: 19}},
		{"5.5.5-10.11.6-MariaDB-log", Server{Flavor: FlavorMariaDB, Major: 10, Minor: 11, Patch: 6}},
		{"10.6.18-MariaDB", Server{Flavor: FlavorMariaDB, Major: 10, Minor: 6, Patch: 18}},
		{"11.4.2-MariaDB-ubu2404", Server{Flavor: FlavorMariaDB, Major: 11, Minor: 4, Patch: 2}},
		{"8.0.36", Server{Flavor: FlavorMySQL, Major: 8, Minor: 0, Patch: 36}},
		{"8.4.3-commercial", Server{Flavor: FlavorMySQL, Major: 8, Minor: 4, Patch: 3}},
		{"8.0.36-0ubuntu0.22.04.1", Server{Flavor: FlavorMySQL, Major: 8, Minor: 0, Patch: 36}},
		{"8.0.35-27", Server{Flavor: FlavorMySQL, Major: 8, Minor: 0, Patch: 35}},
		{"8.0.mysql_aurora.3.04.0", Server{Flavor: FlavorMySQL, Major: 8, Minor: 0}},
		{"5.7.44-log", Server{Flavor: FlavorMySQL, Major: 5, Minor: 7, Patch: 44}},
		{"9", Server{Flavor: FlavorMySQL, Major: 9}},
		{"", Server{Flavor: FlavorMySQL}},
		{"garbage", Server{Flavor: FlavorMySQL}},
		{"99999999999.1.1", Server{Flavor: FlavorMySQL}},
	}
	for _, tt := range tests {
		tt.want.Version = tt.version
		if diff := cmp.Diff(tt.want, ParseServer(tt.version)); diff != "" {
			t.Errorf("ParseServer(%q) (-want +got):\n%s", tt.version, diff)
		}
	}
}

func TestServerString(t *testing.T) {
	if got := ParseServer("5.5.5-10.11.6-MariaDB-log").String(); got != "MariaDB 10.11.6" {
		t.Errorf("String() = %q", got)
	}
	if got := (Server{}).String(); got != "unknown 0.0.0" {
		t.Errorf("zero String() = %q", got)
	}
}

// serverFeatures are the predicates of one server, in a comparable form.
type serverFeatures struct {
	EnforcesCheck, InstantAddColumn, NotEnforced, AlterCheckEnforced, Persist, AddCheckNeedsCopy bool
	ListsChecks, FunctionalKeyParts, QuotesDefault, EscapesExpr, IndexesInKeyOrder, ChecksByName bool
}

func featuresOf(s Server) serverFeatures {
	return serverFeatures{
		EnforcesCheck:      s.EnforcesCheck(),
		InstantAddColumn:   s.SupportsInstantAddColumn(),
		NotEnforced:        s.SupportsNotEnforced(),
		AlterCheckEnforced: s.SupportsAlterCheckEnforced(),
		Persist:            s.SupportsPersist(),
		AddCheckNeedsCopy:  s.AddCheckNeedsCopy(),
		ListsChecks:        s.ListsCheckConstraints(),
		FunctionalKeyParts: s.SupportsFunctionalKeyParts(),
		QuotesDefault:      s.QuotesColumnDefault(),
		EscapesExpr:        s.EscapesExpressionText(),
		IndexesInKeyOrder:  s.ListsIndexesInKeyOrder(),
		ChecksByName:       s.SortsChecksByName(),
	}
}

func TestServerPredicates(t *testing.T) {
	mysql8 := serverFeatures{EnforcesCheck: true, InstantAddColumn: true, NotEnforced: true, AlterCheckEnforced: true, Persist: true,
		AddCheckNeedsCopy: true, ListsChecks: true, FunctionalKeyParts: true, EscapesExpr: true, ChecksByName: true}
	mariadb := serverFeatures{EnforcesCheck: true, InstantAddColumn: true, AddCheckNeedsCopy: true, ListsChecks: true,
		QuotesDefault: true, IndexesInKeyOrder: true}
	with := func(f serverFeatures, change func(*serverFeatures)) serverFeatures {
		change(&f)
		return f
	}
	tests := []struct {
		version string
		want    serverFeatures
	}{
		{"8.4.3-commercial", mysql8},
		{"8.0.36", mysql8},
		{"9.1.0", mysql8},
		{"8.0.16", mysql8},
		{"8.0.15", with(mysql8, func(f *serverFeatures) {
			f.EnforcesCheck, f.NotEnforced, f.AlterCheckEnforced, f.ListsChecks = false, false, false, false
		})},
		{"8.0.13", with(mysql8, func(f *serverFeatures) {
			f.EnforcesCheck, f.NotEnforced, f.AlterCheckEnforced, f.ListsChecks = false, false, false, false
		})},
		{"8.0.12", with(mysql8, func(f *serverFeatures) {
			f.EnforcesCheck, f.NotEnforced, f.AlterCheckEnforced, f.ListsChecks, f.FunctionalKeyParts = false, false, false, false, false
		})},
		{"8.0.11", with(mysql8, func(f *serverFeatures) {
			f.EnforcesCheck, f.NotEnforced, f.AlterCheckEnforced, f.ListsChecks, f.FunctionalKeyParts, f.InstantAddColumn = false, false, false, false, false, false
		})},
		{"5.7.44", serverFeatures{AddCheckNeedsCopy: true, IndexesInKeyOrder: true, ChecksByName: true}},
		{"10.11.19-MariaDB-0+deb12u1", mariadb},
		{"5.5.5-10.6.18-MariaDB", mariadb},
		{"11.4.2-MariaDB", mariadb},
		{"10.3.10-MariaDB", mariadb},
		{"10.3.9-MariaDB", with(mariadb, func(f *serverFeatures) { f.ListsChecks = false })},
		{"10.3.2-MariaDB", with(mariadb, func(f *serverFeatures) { f.ListsChecks = false })},
		{"10.3.1-MariaDB", with(mariadb, func(f *serverFeatures) { f.ListsChecks, f.InstantAddColumn = false, false })},
		{"10.2.22-MariaDB", with(mariadb, func(f *serverFeatures) { f.InstantAddColumn = false })},
		{"10.2.21-MariaDB", with(mariadb, func(f *serverFeatures) { f.InstantAddColumn, f.ListsChecks = false, false })},
		{"10.2.7-MariaDB", with(mariadb, func(f *serverFeatures) { f.InstantAddColumn, f.ListsChecks = false, false })},
		{"10.2.6-MariaDB", with(mariadb, func(f *serverFeatures) { f.InstantAddColumn, f.ListsChecks, f.QuotesDefault = false, false, false })},
		{"10.2.1-MariaDB", with(mariadb, func(f *serverFeatures) { f.InstantAddColumn, f.ListsChecks, f.QuotesDefault = false, false, false })},
		{"10.2.0-MariaDB", with(mariadb, func(f *serverFeatures) {
			f.InstantAddColumn, f.ListsChecks, f.QuotesDefault, f.EnforcesCheck = false, false, false, false
		})},
		{"10.1.48-MariaDB", serverFeatures{AddCheckNeedsCopy: true, IndexesInKeyOrder: true}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, featuresOf(ParseServer(tt.version))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.version, diff)
		}
	}
	if diff := cmp.Diff(serverFeatures{}, featuresOf(Server{})); diff != "" {
		t.Errorf("unknown server has features (-want +got):\n%s", diff)
	}
}
