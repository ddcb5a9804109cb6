package audit

import (
	"io"
	"sort"
	"strings"
	"sync"
)

// redactedText replaces a secret in anything guard prints.
const redactedText = "[redacted]"

// Redactor removes the passwords of a set of targets from text. Errors of the
// driver and of the network can echo a DSN; everything the audit prints goes
// through a Redactor first.
type Redactor struct {
	r *strings.Replacer
}

// NewRedactor returns a redactor for the passwords of targets and for the
// extra secrets.
func NewRedactor(targets []*Target, extra ...string) *Redactor {
	var all []string
	for _, t := range targets {
		all = append(all, t.secrets...)
	}
	all = uniqueSecrets(append(all, extra...))
	if len(all) == 0 {
		return &Redactor{}
	}
	pairs := make([]string, 0, 2*len(all))
	for _, s := range all {
		pairs = append(pairs, s, redactedText)
	}
	return &Redactor{r: strings.NewReplacer(pairs...)}
}

// Redact returns s without any secret of r.
func (r *Redactor) Redact(s string) string {
	if r == nil || r.r == nil {
		return s
	}
	return r.r.Replace(s)
}

// Writer returns a writer that redacts what it writes to w. Each Write is
// redacted on its own: callers write whole lines or documents.
func (r *Redactor) Writer(w io.Writer) io.Writer {
	return &redactWriter{r: r, w: w}
}

type redactWriter struct {
	mu sync.Mutex
	r  *Redactor
	w  io.Writer
}

func (rw *redactWriter) Write(p []byte) (int, error) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if _, err := io.WriteString(rw.w, rw.r.Redact(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// uniqueSecrets drops empty and repeated secrets and orders the rest longest
// first: strings.Replacer tries its pairs in order at each position, so a
// password that contains another one is replaced whole.
func uniqueSecrets(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// looseSecrets guesses what might be a password in a DSN that may not parse:
// the text between the user's colon and each @ after it. ParseDSN redacts
// these from its errors, since they cannot rely on the parse.
func looseSecrets(dsn string) []string {
	start := 0
	if i := strings.Index(dsn, "://"); i >= 0 {
		start = i + 3
	}
	colon := strings.IndexByte(dsn[start:], ':')
	if colon < 0 {
		return nil
	}
	colon += start
	var out []string
	for j := colon + 1; j < len(dsn); j++ {
		if dsn[j] == '@' && j > colon+1 {
			out = append(out, dsn[colon+1:j])
		}
	}
	return out
}

// redactAll replaces each of secrets in s.
func redactAll(s string, secrets []string) string {
	for _, sec := range uniqueSecrets(secrets) {
		s = strings.ReplaceAll(s, sec, redactedText)
	}
	return s
}
