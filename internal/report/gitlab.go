package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// gitlabIssue is one entry of a GitLab Code Quality report (the subset of
// the Code Climate issue format GitLab reads).
type gitlabIssue struct {
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"`
	Location    gitlabLocation `json:"location"`
}

type gitlabLocation struct {
	Path  string      `json:"path"`
	Lines gitlabLines `json:"lines"`
}

type gitlabLines struct {
	Begin int `json:"begin"`
}

// writeGitLab prints a GitLab Code Quality report: a JSON array with one
// issue per finding. GitLab tells a new issue from a known one by its
// fingerprint, so it is built from what the baseline matches on (code,
// file and lint.Fingerprint: no line) with the target and the rank of the
// finding among those alike: stable across runs and edits elsewhere, and
// unique within the report.
func writeGitLab(buf *bytes.Buffer, res *lint.Result) error {
	issues := make([]gitlabIssue, 0, len(res.Findings))
	seen := map[string]int{}
	for i := range res.Findings {
		f := &res.Findings[i]
		key := strings.Join([]string{f.Code, f.File, f.Target, lint.Fingerprint(*f)}, "\x00")
		n := seen[key]
		seen[key]++
		sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(n)))
		path := f.File
		if path == "" {
			path = placeOf(f)
		}
		desc := f.Code
		if f.Rule != "" {
			desc += " " + f.Rule
		}
		issues = append(issues, gitlabIssue{
			Description: desc + ": " + f.Message + ranText(f),
			CheckName:   f.Code,
			Fingerprint: hex.EncodeToString(sum[:16]),
			Severity:    gitlabSeverity(f.Severity),
			Location:    gitlabLocation{Path: path, Lines: gitlabLines{Begin: max(f.Line, 1)}},
		})
	}
	enc := json.NewEncoder(buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(issues)
}

// gitlabSeverity maps guard's severities onto GitLab's info, minor, major,
// critical and blocker: an error fails the pipeline by default (critical),
// a warning does not (major).
func gitlabSeverity(s policy.Severity) string {
	switch s {
	case policy.SevError:
		return "critical"
	case policy.SevWarning:
		return "major"
	}
	return "info"
}
