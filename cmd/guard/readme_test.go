package main

import (
	"os"
	"strings"
	"testing"

	"github.com/guard-sql/guard/lint/rules"
)

// TestReadmeNamesEveryRule keeps the README's rule catalogue in step with the registry.
func TestReadmeNamesEveryRule(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules.All() {
		if !strings.Contains(string(b), "| "+r.Code+" | "+r.Name+" |") {
			t.Errorf("README's rule table lacks %s %s", r.Code, r.Name)
		}
	}
}
