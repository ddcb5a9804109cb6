package validation

import "testing"

func TestSafePattern(t *testing.T) {
	tests := []struct {
		re   string
		want bool
	}{
		{"(id|name|create_time)( (asc|desc))?", true},
		{"[a-zA-Z_][a-zA-Z0-9_]*(,[a-zA-Z_]+)*", true},
		{"\\w+(\\s+(?i:asc|desc))?", true},
		{"^[a-z.`]+$", true},
		{"", false},
		{".*", false},
		{".+", false},
		{"[^']+", false},
		{"[a-z]+;?", false},
		{"[a-z()]+", false},
		{"\\S+", false},
		{"[a-z]++", false}, // a possessive quantifier: Java's, read as unknown
	}
	for _, tt := range tests {
		if got := SafePattern(tt.re); got != tt.want {
			t.Errorf("SafePattern(%q) = %v, want %v", tt.re, got, tt.want)
		}
	}
}
