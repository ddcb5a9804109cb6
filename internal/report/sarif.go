package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// SARIF constants: the schema GitHub code scanning validates against, and
// where guard's own documentation lives.
const (
	sarifSchema    = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion   = "2.1.0"
	informationURI = "https://github.com/guard-sql/guard"
	// srcRoot is the uriBaseId of file locations: paths in findings are
	// relative to the directory guard ran in, which CI makes the checkout.
	srcRoot = "%SRCROOT%"
	// auditURI is the pseudo file of live findings. GitHub shows a result
	// only when it has a physical location, so a live finding points at
	// guard-audit/<target> line 1 and names its table in a logical location.
	auditURI = "guard-audit"
	// fingerprintKey versions the partial fingerprint: change it (v2) if the
	// hashed fields ever change, or every alert would be closed and reopened.
	fingerprintKey = "guard/v1"
)

// The SARIF 2.1.0 objects guard writes; field order follows the spec.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool        sarifTool         `json:"tool"`
		Results     []sarifResult     `json:"results"`
		Invocations []sarifInvocation `json:"invocations,omitempty"`
	}
	// sarifInvocation says whether the run finished; a live report's failed
	// targets are its notifications, where SARIF puts what kept a tool from
	// finishing.
	sarifInvocation struct {
		ExecutionSuccessful bool                `json:"executionSuccessful"`
		Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level   string    `json:"level"`
		Message sarifText `json:"message"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string                `json:"name"`
		Version        string                `json:"version,omitempty"`
		InformationURI string                `json:"informationUri"`
		Rules          []sarifRuleDescriptor `json:"rules"`
	}
	sarifRuleDescriptor struct {
		ID                   string          `json:"id"`
		Name                 string          `json:"name,omitempty"`
		ShortDescription     *sarifText      `json:"shortDescription,omitempty"`
		FullDescription      *sarifText      `json:"fullDescription,omitempty"`
		Help                 *sarifHelp      `json:"help,omitempty"`
		DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
		Properties           sarifRuleProps  `json:"properties"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifHelp struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	sarifRuleConfig struct {
		Level   string `json:"level"`
		Enabled *bool  `json:"enabled,omitempty"`
	}
	sarifRuleProps struct {
		Tags []string `json:"tags"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		// Properties hold what a live server recorded of the statement
		// (guard audit --queries): its digest, how often and when it ran;
		// or the server settings a live finding rests on, and how many
		// audited databases share the server.
		Properties *sarifProps `json:"properties,omitempty"`
	}
	sarifProps struct {
		Digest     string            `json:"digest,omitempty"`
		Executions int64             `json:"executions,omitempty"`
		FirstSeen  string            `json:"firstSeen,omitempty"`
		LastSeen   string            `json:"lastSeen,omitempty"`
		Settings   map[string]string `json:"settings,omitempty"`
		Databases  int               `json:"databases,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical     `json:"physicalLocation"`
		LogicalLocations []sarifLogicalLoc `json:"logicalLocations,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
		EndLine     int `json:"endLine,omitempty"`
	}
	sarifLogicalLoc struct {
		FullyQualifiedName string `json:"fullyQualifiedName"`
		Kind               string `json:"kind"`
	}
)

// writeSARIF prints one run whose driver lists every rule of opts.Rules (and
// any code a finding uses that the list lacks, so ruleIndex always resolves).
func writeSARIF(buf *bytes.Buffer, res *lint.Result, opts Options) error {
	driver := sarifDriver{Name: "guard", Version: opts.Version, InformationURI: informationURI, Rules: []sarifRuleDescriptor{}}
	index := map[string]int{}
	addRule := func(ri RuleInfo) {
		if _, ok := index[ri.Code]; ok {
			return
		}
		index[ri.Code] = len(driver.Rules)
		driver.Rules = append(driver.Rules, ruleDescriptor(ri))
	}
	for _, ri := range opts.Rules {
		addRule(ri)
	}
	results := []sarifResult{}
	seen := map[string]int{}
	for i := range res.Findings {
		f := &res.Findings[i]
		addRule(RuleInfo{Code: f.Code, Name: f.Rule, Severity: f.Severity})
		fp := fingerprint(f)
		seen[fp]++
		r := sarifResult{
			RuleID:              f.Code,
			RuleIndex:           index[f.Code],
			Level:               sarifLevel(f.Severity),
			Message:             sarifText{Text: withFix(f)},
			Locations:           []sarifLocation{location(f)},
			PartialFingerprints: map[string]string{fingerprintKey: fp + ":" + strconv.Itoa(seen[fp])},
		}
		if f.Digest != "" || len(f.Settings) > 0 || f.Databases > 0 {
			r.Properties = &sarifProps{Digest: f.Digest, Executions: f.Executions, FirstSeen: f.FirstSeen, LastSeen: f.LastSeen,
				Settings: f.Settings, Databases: f.Databases}
		}
		results = append(results, r)
	}
	log := sarifLog{
		Schema:  sarifSchema,
		Version: sarifVersion,
		Runs:    []sarifRun{{Tool: sarifTool{Driver: driver}, Results: results}},
	}
	if l := opts.Live; l != nil {
		inv := sarifInvocation{ExecutionSuccessful: len(l.Failures) == 0}
		for _, f := range l.Failures {
			inv.Notifications = append(inv.Notifications, sarifNotification{Level: "error", Message: sarifText{Text: f.Target + ": " + f.Error}})
		}
		log.Runs[0].Invocations = []sarifInvocation{inv}
	}
	enc := json.NewEncoder(buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}

func ruleDescriptor(ri RuleInfo) sarifRuleDescriptor {
	d := sarifRuleDescriptor{
		ID:                   ri.Code,
		Name:                 ri.Name,
		DefaultConfiguration: sarifRuleConfig{Level: sarifLevel(ri.Severity)},
		Properties:           sarifRuleProps{Tags: []string{"concurrency", "correctness"}},
	}
	if ri.Severity == policy.SevOff {
		disabled := false
		d.DefaultConfiguration.Enabled = &disabled
	}
	if ri.Summary != "" {
		d.ShortDescription = &sarifText{Text: ri.Summary}
	}
	if ri.Doc != "" {
		d.FullDescription = &sarifText{Text: ri.Doc}
	}
	switch {
	case ri.Doc != "" && ri.Fix != "":
		d.Help = &sarifHelp{Text: ri.Doc + "\n\nFix: " + ri.Fix, Markdown: ri.Doc + "\n\n**Fix:** " + ri.Fix}
	case ri.Doc != "":
		d.Help = &sarifHelp{Text: ri.Doc, Markdown: ri.Doc}
	case ri.Fix != "":
		d.Help = &sarifHelp{Text: "Fix: " + ri.Fix, Markdown: "**Fix:** " + ri.Fix}
	}
	return d
}

// sarifLevel maps a severity to a SARIF level; an unknown or empty severity is
// "warning", SARIF's own default.
func sarifLevel(s policy.Severity) string {
	switch s {
	case policy.SevError:
		return "error"
	case policy.SevInfo:
		return "note"
	case policy.SevOff:
		return "none"
	}
	return "warning"
}

// location places a finding: its file and lines, or for a live finding the
// audit pseudo file plus the table as a logical location. startLine is at
// least 1 because GitHub drops results without it.
func location(f *lint.Finding) sarifLocation {
	var loc sarifLocation
	if f.File != "" {
		uri, base := fileURI(f.File)
		loc.PhysicalLocation.ArtifactLocation = sarifArtifact{URI: uri, URIBaseID: base}
		loc.PhysicalLocation.Region = sarifRegion{StartLine: max(f.Line, 1)}
		if f.Line > 0 {
			if f.Column > 0 {
				loc.PhysicalLocation.Region.StartColumn = f.Column
			}
			if f.EndLine >= f.Line {
				loc.PhysicalLocation.Region.EndLine = f.EndLine
			}
		}
		return loc
	}
	uri := auditURI
	if f.Target != "" {
		uri += "/" + escapeURIPath(f.Target)
	}
	loc.PhysicalLocation.ArtifactLocation = sarifArtifact{URI: uri}
	loc.PhysicalLocation.Region = sarifRegion{StartLine: 1}
	var names []string
	for _, n := range []string{f.Target, f.Table} {
		if n != "" {
			names = append(names, n)
		}
	}
	if len(names) > 0 {
		kind := "table"
		if f.Table == "" {
			kind = "database"
		}
		loc.LogicalLocations = []sarifLogicalLoc{{FullyQualifiedName: strings.Join(names, "/"), Kind: kind}}
	}
	return loc
}

// fileURI turns a finding's path into a SARIF uri: forward slashes,
// percent-encoded, relative to %SRCROOT%; an absolute path becomes a file://
// URI with no base.
func fileURI(file string) (uri, base string) {
	p := filepath.ToSlash(file)
	switch {
	case strings.HasPrefix(p, "/"):
		return "file://" + escapeURIPath(path.Clean(p)), ""
	case len(p) >= 3 && p[1] == ':' && p[2] == '/' && isLetter(p[0]): // C:/dir on Windows
		return "file:///" + escapeURIPath(path.Clean(p)), ""
	}
	p = path.Clean(p)
	// A colon in the first segment would read as a URI scheme.
	first, rest, found := strings.Cut(p, "/")
	uri = strings.ReplaceAll(escapeURIPath(first), ":", "%3A")
	if found {
		uri += "/" + escapeURIPath(rest)
	}
	return uri, srcRoot
}

func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// escapeURIPath percent-encodes every byte that may not stand in a URI path
// (RFC 3986 pchar plus "/"); non-ASCII text is encoded as its UTF-8 bytes.
func escapeURIPath(s string) string {
	const hexDigits = "0123456789ABCDEF"
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isPathChar(c) {
			sb.WriteByte(c)
			continue
		}
		sb.WriteByte('%')
		sb.WriteByte(hexDigits[c>>4])
		sb.WriteByte(hexDigits[c&15])
	}
	return sb.String()
}

func isPathChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~!$&'()*+,;=:@/", c) >= 0
}

// fingerprint identifies a finding across runs without its line, so that an
// alert survives code moving up or down: a hash of the code, the file (or the
// live target), the table, the column and the statement with its white space
// folded. writeSARIF appends ":N" to tell apart identical findings of one run.
func fingerprint(f *lint.Finding) string {
	h := sha256.New()
	for _, s := range []string{f.Code, filepath.ToSlash(f.File), f.Target, f.Table, f.ColumnName, strings.Join(strings.Fields(f.SQL), " ")} {
		h.Write([]byte(s))
		h.Write([]byte{0}) // separator: ("ab","c") and ("a","bc") must differ
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
