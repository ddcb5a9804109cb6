package sqlparse

import (
	"strings"
	"testing"
)

// TestParseRecoversFromParserPanic feeds a decimal literal the parser's test
// driver cannot hold: Parse must return a positioned error, and the parser
// must still work afterwards.
func TestParseRecoversFromParserPanic(t *testing.T) {
	p := NewParser()
	huge := "SELECT " + strings.Repeat("0", 60) + "2" + strings.Repeat("0", 21)
	_, err := p.Parse(huge)
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("Parse(%q) error = %v (%T), want *Error", huge, err, err)
	}
	if e.Line != 1 || e.Column != 1 || !strings.Contains(e.Msg, "parser failed") {
		t.Errorf("error = %+v, want 1:1 parser failed", e)
	}
	if _, err := p.ParseAll(huge); err == nil {
		t.Error("ParseAll: no error")
	}
	if _, err := p.Parse("SELECT 1"); err != nil {
		t.Errorf("parser unusable after a recovered panic: %v", err)
	}
}
