package lintcache

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// sampleFile is a file entry as guard lint stores one.
func sampleFile() *FileEntry {
	u := lint.UsageFrom([]lint.UsageTable{{Name: "t_stock", All: lint.Uses{First: []lint.Use{{File: "q.sql", Line: 3, Verb: "UPDATE"}}, N: 1},
		Inserts: []lint.InsertUse{{Use: lint.Use{File: "q.sql", Line: 9, Verb: "INSERT"}, Columns: []string{"id", "qty"}}}}})
	return &FileEntry{
		Path: "q.sql", Lang: stmt.LangSQL, Statements: 4,
		Findings: []lint.Finding{{Code: "GQ002", Rule: "unguarded-decrement", Severity: "error", File: "q.sql", Line: 3, Column: 1, EndLine: 3,
			Table: "t_stock", ColumnName: "qty", Message: "decrement", Fix: "add AND qty >= 1", SQL: "UPDATE t_stock SET qty = qty - 1",
			Causes: []lint.Cause{{File: "A.java", Line: 2, Call: "m.update(x)", Unchecked: []string{"n"}}}}},
		Observations: []lint.Observation{{Kind: lint.ObsDecrement, Table: "t_stock", Column: "qty", Value: "1", File: "q.sql", Line: 3, Count: 2}},
		Suppressions: []stmt.Suppression{{Code: "GQ007", Reason: "read only", Line: 5, Col: 1}},
		Anchors:      map[int]int{6: 5}, Hosts: []Host{{Line: 6, Col: 1, HostLine: 5, HostCol: 2}},
		Uses: u, Tables: []Table{{SQL: "CREATE TABLE t_stock (id INT)", File: "q.sql", Line: 1, Col: 1}},
		Asked: [][2]string{{"t_stock", "qty"}}, AskedByCode: [][2]string{{"t_stock", "status"}},
	}
}

// FuzzCacheEntry reads arbitrary bytes as an entry's file and as each
// kind of payload: nothing may panic or allocate beyond the input's size,
// and a payload read as good reads the same once written again. Its seeds
// are whole, truncated and damaged entries of every kind; go test runs
// them, go test -fuzz FuzzCacheEntry looks for more.
func FuzzCacheEntry(f *testing.F) {
	file := EncodeFile(sampleFile())
	linked := EncodeLinked(&LinkedEntry{Vocabulary: []byte(`{"Counters":{}}`), Files: []FileEntry{*sampleFile(), {}}, Observations: sampleFile().Observations, Models: sampleFile().Uses})
	run := EncodeResult(&lint.Result{Findings: sampleFile().Findings, Summary: lint.Summary{Error: 1, Files: 2}, Flyway: []string{"V1__x.sql"}})
	printed := EncodeReport(&ReportEntry{Worst: 3, Stdout: "q.sql:3:1: error GQ002 …\n", Stderr: "guard: note: …\n"})
	k := keyOf("fuzz")
	for _, p := range [][]byte{file, linked, run, printed} {
		whole := append(append(header(KindFile, k), p...), trailer(int64(len(p)), crc32c(p))...)
		f.Add(whole)
		f.Add(append(append(header(KindReport, k), p...), trailer(int64(len(p)), crc32c(p))...))
		f.Add(p)
		f.Add(p[:len(p)/2])
		f.Add(p[:len(p)-1])
		damaged := bytes.Clone(p)
		damaged[len(p)/3] ^= 0xff
		f.Add(damaged)
	}
	f.Add([]byte{})
	f.Add([]byte("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		if p, ok := unframe(b, KindFile, k); ok {
			if _, ok := DecodeFile(bytes.Clone(p)); !ok {
				t.Log("a whole frame whose payload does not read")
			}
		}
		if e, ok := DecodeFile(bytes.Clone(b)); ok {
			if again, ok := DecodeFile(EncodeFile(e)); !ok || !cmp.Equal(e, again, usageOpt) {
				t.Errorf("file entry not read back the same once written again")
			}
		}
		if e, ok := DecodeLinked(bytes.Clone(b)); ok {
			if again, ok := DecodeLinked(EncodeLinked(e)); !ok || !cmp.Equal(e, again, usageOpt) {
				t.Errorf("linked entry not read back the same once written again")
			}
		}
		if res, ok := DecodeResult(bytes.Clone(b)); ok {
			if again, ok := DecodeResult(EncodeResult(res)); !ok || !cmp.Equal(res, again) {
				t.Errorf("result not read back the same once written again")
			}
		}
		if e, ok := DecodeReport(bytes.Clone(b)); ok {
			if again, ok := DecodeReport(EncodeReport(e)); !ok || !cmp.Equal(e, again) {
				t.Errorf("report not read back the same once written again")
			}
		}
		// The same bytes as the file of an entry in a cache folder.
		c := Open(dir, Options{Version: "fuzz"})
		p := c.path(KindFile, k)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if got, ok := c.Get(KindFile, k); ok {
			if want, _ := unframe(b, KindFile, k); !bytes.Equal(got, want) {
				t.Error("Get returned other bytes than the entry's payload")
			}
		}
		// And as a report entry, served without being read whole: what it
		// prints is what DecodeReport reads of the payload, or nothing.
		rp := c.path(KindReport, k)
		os.MkdirAll(filepath.Dir(rp), 0o755)
		if err := os.WriteFile(rp, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		worst, ok, err := c.ServeReport(k, &out, &errOut)
		payload, whole := unframe(b, KindReport, k)
		want, decoded := DecodeReport(payload)
		switch {
		case err != nil:
			t.Fatal(err)
		case ok && (!whole || !decoded || worst != want.Worst || out.String() != want.Stdout || errOut.String() != want.Stderr):
			t.Errorf("served worst %d, %q, %q; the payload reads %v %+v", worst, out.String(), errOut.String(), decoded, want)
		case !ok && (out.Len() > 0 || errOut.Len() > 0):
			t.Error("a report entry not served wrote something")
		}
	})
}
