package target

import (
	"io"
	"sort"
	"strings"
	"sync"
)

// RedactedText replaces a secret in anything guard prints.
const RedactedText = "[redacted]"

// shortSecret is the length under which a password is redacted only where it
// stands alone: a password "pa" must not turn "parse" into "[redacted]rse".
const shortSecret = 6

// Redactor removes the parsed passwords of a set of targets from text.
// Errors of the driver and of the network can echo a DSN; everything a live
// command prints goes through a Redactor first. It replaces the passwords
// and the forms they were written in, nothing guessed.
type Redactor struct {
	secrets []string // longest first
}

// Secrets is anything that knows the passwords it was parsed with: a
// Target, a Redis address.
type Secrets interface {
	secretForms() []string
}

func (t *Target) secretForms() []string {
	if t == nil {
		return nil
	}
	return t.secrets
}

// NewRedactor returns a redactor for the passwords of each of from.
func NewRedactor(from ...Secrets) *Redactor {
	var all []string
	for _, s := range from {
		if s != nil {
			all = append(all, s.secretForms()...)
		}
	}
	return &Redactor{secrets: uniqueSecrets(all)}
}

// RedactorOf returns a redactor for the passwords of every target of ts.
func RedactorOf(ts []*Target) *Redactor {
	from := make([]Secrets, len(ts))
	for i, t := range ts {
		from[i] = t
	}
	return NewRedactor(from...)
}

// Redact returns s without any secret of r. At each place the longest
// secret that matches is replaced, so a password that holds another one is
// replaced whole, and a replacement is never looked into again.
func (r *Redactor) Redact(s string) string {
	if r == nil || len(r.secrets) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		for _, sec := range r.secrets {
			if !strings.HasPrefix(s[i:], sec) || len(sec) < shortSecret && !standsAlone(s, i, i+len(sec)) {
				continue
			}
			b.WriteString(s[last:i])
			b.WriteString(RedactedText)
			i += len(sec) - 1
			last = i + 1
			break
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// standsAlone reports whether s[i:j] has no letter or digit on either side.
func standsAlone(s string, i, j int) bool {
	return (i == 0 || !isWordByte(s[i-1])) && (j == len(s) || !isWordByte(s[j]))
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
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
// first.
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

// SecretFragment returns the longest run of at least 3 characters of secret
// that text holds, or "" when it holds none: a check that a message leaks
// nothing of a password, not even a piece cut by a wrong parse.
func SecretFragment(text, secret string) string {
	r := []rune(secret)
	for n := len(r); n >= 3; n-- {
		for i := 0; i+n <= len(r); i++ {
			if f := string(r[i : i+n]); strings.Contains(text, f) {
				return f
			}
		}
	}
	return ""
}
