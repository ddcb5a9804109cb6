package driver

import "testing"

// TestPhasesInOrder checks the declared phases: unique names, and every
// phase a phase requires runs before it.
func TestPhasesInOrder(t *testing.T) {
	seen := map[string]bool{}
	for _, ph := range phases {
		if seen[ph.name] {
			t.Errorf("phase %q declared twice", ph.name)
		}
		for _, req := range ph.requires {
			if !seen[req] {
				t.Errorf("phase %q requires %q, which does not run before it", ph.name, req)
			}
		}
		seen[ph.name] = true
	}
	if !seen["infer"] {
		t.Error("no phase infer: Infer stops after it")
	}
}
