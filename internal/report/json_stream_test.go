package report

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// encodedJSON is the report as encoding/json prints jsonReport: the
// definition streamJSON must print byte for byte.
func encodedJSON(t testing.TB, res *lint.Result, opts Options) string {
	t.Helper()
	doc := jsonReport{Tool: "guard", Version: opts.Version, Findings: res.Findings, Summary: res.Summary}
	if doc.Findings == nil {
		doc.Findings = []lint.Finding{}
	}
	if l := opts.Live; l != nil {
		failures := l.Failures
		if failures == nil {
			failures = []Failure{}
		}
		doc.Failures, doc.Redis = &failures, l.Redis
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func streamedJSON(t testing.TB, res *lint.Result, opts Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := streamJSON(&buf, res, opts); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// awkward are texts encoding/json quotes in every way it has.
var awkward = []string{"", "plain", `"quoted" \back\`, "tab\tnew\nline\r\b\f", "\x00\x01\x1f\x7f", "<>&",
	"ünïcødé 库存", "\u2028\u2029", "bad \xff\xfe utf8", "\xe2\x82", "emoji 🙂", strings.Repeat("x", 300)}

// randomFinding fills every field of a finding, the optional ones or not.
func randomFinding(r *rand.Rand) lint.Finding {
	pick := func() string {
		s := awkward[r.IntN(len(awkward))]
		if r.IntN(3) == 0 {
			s += awkward[r.IntN(len(awkward))]
		}
		return s
	}
	f := lint.Finding{Code: pick(), Rule: pick(), Severity: policy.Severity(pick()), File: pick(),
		Line: r.IntN(1000) - 5, Column: r.IntN(80), EndLine: r.IntN(1000), Target: pick(), Table: pick(),
		ColumnName: pick(), Message: pick(), Fix: pick(), SQL: pick()}
	if r.IntN(2) == 0 {
		f.Digest, f.Executions, f.FirstSeen, f.LastSeen = pick(), r.Int64N(1<<40)-5, pick(), pick()
	}
	if r.IntN(3) == 0 {
		f.Settings = map[string]string{}
		for range r.IntN(4) {
			f.Settings[pick()] = pick()
		}
		f.Databases = r.IntN(3)
	}
	return f
}

// TestStreamJSONIsEncodingJSON prints random reports, of every size around
// the part size, live or not, both ways.
func TestStreamJSONIsEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, jsonPart - 1, jsonPart, jsonPart + 1, 3*jsonPart + 7} {
		for _, live := range []*Live{nil, {}, {Failures: []Failure{{Target: "h:1/db", Error: "x\ny"}}, Redis: []map[string]any{{"target": "redis://h:1", "replicas": []int{}}}}} {
			res := &lint.Result{Summary: lint.Summary{Error: n, Files: 2, Statements: n + 1, Tables: 3}}
			for range n {
				res.Findings = append(res.Findings, randomFinding(r))
			}
			opts := Options{Version: awkward[r.IntN(len(awkward))], Live: live}
			if d := cmp.Diff(encodedJSON(t, res, opts), streamedJSON(t, res, opts)); d != "" {
				t.Fatalf("%d findings, live %v (-encoding/json +streamed):\n%s", n, live != nil, d)
			}
		}
	}
}

// FuzzStreamJSON quotes arbitrary text both ways.
func FuzzStreamJSON(f *testing.F) {
	for _, s := range awkward {
		f.Add(s, s, int64(len(s)))
	}
	f.Fuzz(func(t *testing.T, a, b string, n int64) {
		fd := lint.Finding{Code: a, Rule: b, Severity: policy.Severity(a), File: b, Line: int(n), Message: a + b, SQL: b,
			Digest: a, Executions: n, Settings: map[string]string{a: b, b: a}, Databases: int(n % 7)}
		res := &lint.Result{Findings: []lint.Finding{fd, {}}}
		opts := Options{Version: b, Live: &Live{Failures: []Failure{{Target: a, Error: b}}}}
		if want, got := encodedJSON(t, res, opts), streamedJSON(t, res, opts); want != got {
			t.Fatalf("(-encoding/json +streamed):\n%s", cmp.Diff(want, got))
		}
	})
}

func BenchmarkJSONReport(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	res := &lint.Result{}
	for range 25000 {
		f := randomFinding(r)
		f.Settings = nil
		res.Findings = append(res.Findings, f)
	}
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			encodedJSON(b, res, Options{})
		}
	})
	b.Run("streamed", func(b *testing.B) {
		for b.Loop() {
			streamedJSON(b, res, Options{})
		}
	})
}
