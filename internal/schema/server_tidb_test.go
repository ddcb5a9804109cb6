package schema

import "testing"

// TestParseServerTiDB reads TiDB's VERSION() ("8.0.11-TiDB-v7.5.0"): MySQL
// 8.0.11 by its protocol, TiDB by its release, whose CHECK constraints
// hang on a variable from v7.2 and are ignored before.
func TestParseServerTiDB(t *testing.T) {
	tests := []struct {
		version, release string
		switches         bool
	}{
		{"8.0.11-TiDB-v7.5.0", "7.5.0", true},
		{"8.0.11-TiDB-v7.2.0", "7.2.0", true},
		{"8.0.11-TiDB-v8.5.1", "8.5.1", true},
		{"5.7.25-TiDB-v6.5.3", "6.5.3", false},
		{"8.0.11-TiDB-v7.1.5-serverless", "7.1.5", false},
		{"8.0.11-TiDB-None", "unknown", false},
		{"8.0.36", "", false},
		{"10.11.6-MariaDB", "", false},
	}
	for _, tt := range tests {
		s := ParseServer(tt.version)
		if s.TiDB != tt.release || s.IsTiDB() != (tt.release != "") || s.SwitchesCheckConstraints() != tt.switches {
			t.Errorf("ParseServer(%q): TiDB %q, switches %v; want %q, %v", tt.version, s.TiDB, s.SwitchesCheckConstraints(), tt.release, tt.switches)
		}
		if s.IsTiDB() && (s.Flavor != FlavorMySQL || s.EnforcesCheck()) {
			t.Errorf("ParseServer(%q) = %v, enforces CHECK %v: want MySQL flavor, no CHECK without the variable", tt.version, s.Flavor, s.EnforcesCheck())
		}
	}
	if got := ParseServer("8.0.11-TiDB-v7.5.0").String(); got != "TiDB 7.5.0" {
		t.Errorf("String() = %q", got)
	}
	for text, want := range map[string]string{
		"Release Version: v7.5.0\nEdition: Community\nGit Commit Hash: 069631e2ecfedc000ffac92c67dcae8224ca6624": "7.5.0",
		"v6.5.3": "6.5.3",
		"None":   "",
	} {
		if got := TiDBRelease(text); got != want {
			t.Errorf("TiDBRelease(%q) = %q, want %q", text, got, want)
		}
	}
}
