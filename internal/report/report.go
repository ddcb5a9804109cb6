// Package report prints the findings of a run: text for people, json for
// scripts (the contract of DESIGN §5), sarif for GitHub code scanning,
// github workflow commands for annotations in an Actions log, gitlab for
// GitLab's Code Quality report, markdown for a pull request comment and html
// for a self-contained page to hand around (WriteDrillHTML and
// WriteDryRunHTML write the pages of a drill and of a dry run).
package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// Options tunes the output of Write.
type Options struct {
	// Version is guard's version, printed in json and sarif.
	Version string
	// Color turns on ANSI colours in the text format; the other formats ignore it.
	Color bool
	// Rules describes every rule of the registry; sarif lists them as its
	// reporting descriptors.
	Rules []RuleInfo
	// Live is set on the report of live targets (guard audit), nil for
	// guard lint's.
	Live *Live
	// Generated is when the report was made, printed by html; the zero
	// time prints none, so that a lint report is the same on every run.
	Generated time.Time
}

// Live is what a report of live targets carries besides its findings.
// json adds "failures" (always, [] for none) and "redis" (when any Redis
// server was audited) after the keys of DESIGN §5; sarif records the
// failures in its invocation; github prints an error annotation for each;
// text leaves them to the command's stderr.
type Live struct {
	// Failures are the targets that could not be audited.
	Failures []Failure
	// Audited is how many targets were audited; text's summary line counts
	// targets instead of files.
	Audited int
	// Redis is what the audit of each Redis server saw, encoded as it is.
	Redis any
	// Targets are every target of the run, audited or not, in input
	// order; html prints a row for each, those without findings too.
	Targets []LiveTarget
}

// LiveTarget is one target of a live run.
type LiveTarget struct {
	// Name is host:port/db, or redis://host:port.
	Name string
	// Server is the host:port of a database target, which the findings
	// of the server as a whole (GS011, GS012) name; Version what the
	// server said it is ("MariaDB 10.11.6"), "" when unreached.
	Server, Version string
}

// Failure is a target that could not be audited, and why.
type Failure struct {
	Target string `json:"target"`
	Error  string `json:"error"`
}

// RuleInfo describes one rule for the formats that carry the catalogue.
type RuleInfo struct {
	Code string // stable code, e.g. "GQ002"
	Name string // kebab-case name, e.g. "unguarded-decrement"
	// Summary is the one-line "fires when" of the catalogue.
	Summary string
	// Doc is the rationale; Fix the default advice.
	Doc, Fix string
	// Severity is the effective default severity (the policy applied).
	Severity policy.Severity
	// PerServer says the rule's findings are a server's, not one
	// database's (lint.Rule.PerServer): html lists them per server.
	PerServer bool
}

// The output formats.
const (
	FormatText   = "text"
	FormatJSON   = "json"
	FormatSARIF  = "sarif"
	FormatGitHub = "github"
	FormatGitLab = "gitlab"
	// FormatMarkdown is a summary sized for a pull request comment or a
	// GitHub job summary (writeMarkdown).
	FormatMarkdown = "markdown"
)

// Formats returns the names Write accepts, in the order help texts list them.
func Formats() []string {
	return []string{FormatText, FormatJSON, FormatSARIF, FormatGitHub, FormatGitLab, FormatMarkdown, FormatHTML}
}

// ErrUnknownFormat is returned by Write for a format not in Formats.
var ErrUnknownFormat = errors.New("unknown format")

// Write prints res to w in the given format. The report is built in memory
// first so that a failing writer never leaves half a JSON document behind
// without an error.
func Write(w io.Writer, format string, res *lint.Result, opts Options) error {
	if res == nil {
		return errors.New("write report: nil result")
	}
	var buf bytes.Buffer
	var err error
	switch format {
	case FormatText:
		// The text of a large report is written as it is printed, part by
		// part, without a copy of the whole.
		if err := streamText(w, res, opts); err != nil {
			return fmt.Errorf("write %s report: %w", format, err)
		}
		return nil
	case FormatJSON:
		// Like the text, the JSON of a large report is written part by part.
		if err := streamJSON(w, res, opts); err != nil {
			return fmt.Errorf("write %s report: %w", format, err)
		}
		return nil
	case FormatSARIF:
		err = writeSARIF(&buf, res, opts)
	case FormatGitHub:
		writeGitHub(&buf, res, opts)
	case FormatGitLab:
		err = writeGitLab(&buf, res)
	case FormatMarkdown:
		writeMarkdown(&buf, res, opts, MarkdownLimit)
	case FormatHTML:
		err = writeHTML(&buf, res, opts)
	default:
		return fmt.Errorf("%w %q (want %s)", ErrUnknownFormat, format, strings.Join(Formats(), ", "))
	}
	if err != nil {
		return fmt.Errorf("write %s report: %w", format, err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write %s report: %w", format, err)
	}
	return nil
}

// placeOf names where a finding stands when it has no file: the live target
// (host:port/db), else the table, else the tool itself, so that no line ever
// starts with an empty name.
func placeOf(f *lint.Finding) string {
	switch {
	case f.Target != "":
		return f.Target
	case f.Table != "":
		return f.Table
	}
	return "guard"
}

// withFix joins a message and its fix hint into one sentence sequence, for
// the formats that have a single message field.
func withFix(f *lint.Finding) string {
	msg := f.Message + ranText(f)
	if f.Fix == "" {
		return msg
	}
	if msg == "" {
		return "Fix: " + f.Fix
	}
	return msg + " Fix: " + f.Fix
}

// ranText says how often a statement a live server ran was run, or how
// many audited databases share the server a finding of the whole server
// names; "" for a finding on anything else.
func ranText(f *lint.Finding) string {
	switch {
	case f.Executions == 1:
		return " (ran once)"
	case f.Executions > 1:
		return " (ran " + strconv.FormatInt(f.Executions, 10) + " times)"
	case f.Databases > 1:
		return " (" + strconv.Itoa(f.Databases) + " audited databases share this server)"
	}
	return ""
}
