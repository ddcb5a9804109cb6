package report

import (
	"bytes"
	"encoding/json"

	"github.com/guard-sql/guard/lint"
)

// jsonReport is the document of --format json (DESIGN §5). Findings and
// Summary take their keys from lint's struct tags, so the contract has one
// definition.
type jsonReport struct {
	Tool     string         `json:"tool"`
	Version  string         `json:"version"`
	Findings []lint.Finding `json:"findings"`
	Summary  lint.Summary   `json:"summary"`
	// Failures and Redis are a live report's (Options.Live).
	Failures *[]Failure `json:"failures,omitempty"`
	Redis    any        `json:"redis,omitempty"`
}

// writeJSON prints the report indented by two spaces with a trailing newline.
// HTML escaping is off: SQL is full of < and >, and \u003c helps no reader.
func writeJSON(buf *bytes.Buffer, res *lint.Result, opts Options) error {
	doc := jsonReport{Tool: "guard", Version: opts.Version, Findings: res.Findings, Summary: res.Summary}
	if doc.Findings == nil {
		doc.Findings = []lint.Finding{} // [] rather than null: consumers iterate without a nil check
	}
	if l := opts.Live; l != nil {
		failures := l.Failures
		if failures == nil {
			failures = []Failure{}
		}
		doc.Failures, doc.Redis = &failures, l.Redis
	}
	enc := json.NewEncoder(buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
