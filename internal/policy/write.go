package policy

import (
	"fmt"
	"strings"
)

// Proposal is a policy for the user to confirm, as guard init writes it: the
// base policy's settings, and one [[table]] entry per table whose vocabulary
// inference decided, each column with the evidence for it.
type Proposal struct {
	Base *Policy
	// Header lines are written as comments at the top.
	Header []string
	Tables []TableProposal
}

// TableProposal is one [[table]] entry. A nil list is not written (the
// [schema] patterns and inference keep deciding); a non-nil one, even
// empty, replaces them for the table.
type TableProposal struct {
	Name     string
	Counters *[]Entry
	States   *[]Entry
	Keys     *[]Entry
}

// Entry is one column of a proposed list, with why it is there. A column
// listed as Dropped is written as a comment only: the evidence says it is
// not one (a flag among states, a reference among keys).
type Entry struct {
	Column  string
	Why     string
	Dropped bool
}

// TOML renders the proposal as a commented policies.toml that Parse accepts.
func (p *Proposal) TOML() []byte {
	base := p.Base
	if base == nil {
		base = Default()
	}
	var b strings.Builder
	for _, h := range p.Header {
		b.WriteString(strings.TrimRight("# "+h, " ") + "\n")
	}
	if len(p.Header) > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "version = %d\n\n", base.Version)

	b.WriteString("[schema]\n")
	b.WriteString("# Columns that must never go negative (CHECK (col >= 0), NOT NULL, guarded decrements).\n")
	fmt.Fprintf(&b, "counter_columns = %s\n", tomlList(base.Schema.CounterColumns))
	b.WriteString("# Columns that identify a business event once: each needs a UNIQUE index.\n")
	fmt.Fprintf(&b, "business_keys = %s\n", tomlList(base.Schema.BusinessKeys))
	b.WriteString("# State machine columns: writes must name the state they move from.\n")
	fmt.Fprintf(&b, "state_columns = %s\n", tomlList(base.Schema.StateColumns))
	fmt.Fprintf(&b, "version_column = %s\n", tomlString(base.Schema.VersionColumn))
	fmt.Fprintf(&b, "require_version = %t\n", base.Schema.RequireVersion == nil || *base.Schema.RequireVersion)
	b.WriteString("# Keep learning from the code; the [[table]] entries below win over it.\n")
	fmt.Fprintf(&b, "infer = %t\n", base.Infers())

	for _, t := range base.Tables {
		writeBaseTable(&b, t)
	}
	for _, t := range p.Tables {
		fmt.Fprintf(&b, "\n[[table]]\nname = %s\n", tomlString(t.Name))
		writeEntries(&b, "counters", t.Counters)
		writeEntries(&b, "states", t.States)
		writeEntries(&b, "keys", t.Keys)
	}

	b.WriteString("\n[server]\n# Live audits require a strict sql_mode (GS001).\n")
	fmt.Fprintf(&b, "require_strict_mode = %t\n", base.RequireStrictMode())
	b.WriteString("\n[lint]\n")
	fmt.Fprintf(&b, "paths = %s\n", tomlList(base.Lint.Paths))
	fmt.Fprintf(&b, "exclude = %s\n", tomlList(base.Lint.Exclude))
	b.WriteString("\n[rules]\n# Per-code severity: \"error\" | \"warning\" | \"info\" | \"off\" (`guard rules` lists the codes).\n")
	for _, code := range Codes() {
		if sev := base.Severity(code, ""); sev != "" {
			fmt.Fprintf(&b, "%s = %s\n", code, tomlString(string(sev)))
		}
	}
	b.WriteString("\n[gen]\n")
	fmt.Fprintf(&b, "strip_prefix = %s\n", tomlString(base.Gen.StripPrefix))
	b.WriteString("\n[lock]\n")
	fmt.Fprintf(&b, "key_pattern = %s\n", tomlString(base.Lock.KeyPattern))
	fmt.Fprintf(&b, "ttl = %s\n", tomlString(base.Lock.TTL.String()))
	fmt.Fprintf(&b, "wait = %s\n", tomlString(base.Lock.Wait.String()))
	fmt.Fprintf(&b, "max_attempts = %d\n", base.Lock.MaxAttempts)
	fmt.Fprintf(&b, "backoff_min = %s\n", tomlString(base.Lock.BackoffMin.String()))
	fmt.Fprintf(&b, "backoff_max = %s\n", tomlString(base.Lock.BackoffMax.String()))
	// A limit the base policy set is kept; the default needs no line.
	if base.Migrate.MaxBlockingRows != DefaultMaxBlockingRows {
		b.WriteString("\n[migrate]\n# guard migrate refuses a write-blocking statement on a table above this many rows (0: no limit).\n")
		fmt.Fprintf(&b, "max_blocking_rows = %d\n", base.Migrate.MaxBlockingRows)
	}
	return []byte(b.String())
}

// writeBaseTable keeps a [[table]] entry of the base policy as it was.
func writeBaseTable(b *strings.Builder, t Table) {
	fmt.Fprintf(b, "\n[[table]]\nname = %s\n", tomlString(t.Name))
	if len(t.Unique) > 0 {
		sets := make([]string, len(t.Unique))
		for i, s := range t.Unique {
			sets[i] = tomlList(s)
		}
		fmt.Fprintf(b, "unique = [%s]\n", strings.Join(sets, ", "))
	}
	for _, l := range []struct {
		key  string
		vals *[]string
	}{{"counters", t.Counters}, {"keys", t.Keys}, {"states", t.States}} {
		if l.vals != nil {
			fmt.Fprintf(b, "%s = %s\n", l.key, tomlList(*l.vals))
		}
	}
	if t.Versioned != nil {
		fmt.Fprintf(b, "versioned = %t\n", *t.Versioned)
	}
}

// writeEntries writes one list of a proposed table, a column a line with
// its evidence as a comment; dropped columns appear as comments only.
func writeEntries(b *strings.Builder, key string, entries *[]Entry) {
	if entries == nil {
		return
	}
	var kept []Entry
	for _, e := range *entries {
		if e.Dropped {
			fmt.Fprintf(b, "# not in %s: %s — %s\n", key, e.Column, e.Why)
			continue
		}
		kept = append(kept, e)
	}
	if len(kept) == 0 {
		fmt.Fprintf(b, "%s = []\n", key)
		return
	}
	fmt.Fprintf(b, "%s = [\n", key)
	for _, e := range kept {
		fmt.Fprintf(b, "  %s, # %s\n", tomlString(e.Column), e.Why)
	}
	b.WriteString("]\n")
}

func tomlList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = tomlString(v)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
