package lintcache

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/lint"
)

// filler sets every exported field of a value to something of its own,
// recursively: a field an encoding leaves out then fails the round trip.
type filler struct{ n int }

func (f *filler) fill(v reflect.Value) {
	f.n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("text %d", f.n))
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(f.n))
	case reflect.Uint64, reflect.Uint8:
		v.SetUint(uint64(f.n % 256))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		if v.Type() == reflect.TypeFor[*lint.Usage]() {
			var ts []lint.UsageTable
			f.fill(reflect.ValueOf(&ts).Elem())
			v.Set(reflect.ValueOf(lint.UsageFrom(ts)))
			return
		}
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem())
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			f.fill(s.Index(i))
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			f.fill(v.Index(i))
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			f.fill(k)
			f.fill(e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				f.fill(v.Field(i))
			}
		}
	default:
		panic("filler: no value for " + v.Type().String())
	}
}

// usageOpt compares Usages by what they hold.
var usageOpt = cmp.Transformer("Usage", func(u *lint.Usage) []lint.UsageTable { return u.Export() })

// TestEveryFieldRoundTrips fills every field of each entry, and of each of
// guard's types in it (findings with their gaps and causes, observations,
// suppressions, usage), and reads the entry back: a field added to one of
// those types and not to its encoding fails here. Entries with every list
// and map nil, or empty, come back so too.
func TestEveryFieldRoundTrips(t *testing.T) {
	var f filler
	var file FileEntry
	f.fill(reflect.ValueOf(&file).Elem())
	var linked LinkedEntry
	f.fill(reflect.ValueOf(&linked).Elem())
	var res lint.Result
	f.fill(reflect.ValueOf(&res).Elem())
	res.Baseline = nil // a kept result is the one before the baseline applies

	empty := FileEntry{Findings: []lint.Finding{}, Observations: []lint.Observation{}, Anchors: map[int]int{}, Hosts: []Host{}, Uses: &lint.Usage{}, Tables: []Table{}, Asked: [][2]string{}}
	for name, e := range map[string]*FileEntry{"filled": &file, "zero": {}, "empty": &empty, "zero finding": {Findings: make([]lint.Finding, 3)}} {
		got, ok := DecodeFile(EncodeFile(e))
		if !ok {
			t.Errorf("%s file entry: not read back", name)
			continue
		}
		if d := cmp.Diff(e, got, usageOpt); d != "" {
			t.Errorf("%s file entry read back differs (-stored +read):\n%s", name, d)
		}
	}
	for name, e := range map[string]*LinkedEntry{"filled": &linked, "zero": {}} {
		got, ok := DecodeLinked(EncodeLinked(e))
		if !ok {
			t.Errorf("%s linked entry: not read back", name)
			continue
		}
		if d := cmp.Diff(e, got, usageOpt); d != "" {
			t.Errorf("%s linked entry read back differs (-stored +read):\n%s", name, d)
		}
	}
	many := &lint.Result{Summary: res.Summary}
	for i := range 5000 {
		f := res.Findings[i%2]
		f.Line = i
		many.Findings = append(many.Findings, f)
	}
	for name, r := range map[string]*lint.Result{"filled": &res, "zero": {}, "no findings": {Findings: []lint.Finding{}}, "many findings": many} {
		got, ok := DecodeResult(EncodeResult(r))
		if !ok {
			t.Errorf("%s result: not read back", name)
			continue
		}
		if d := cmp.Diff(r, got); d != "" {
			t.Errorf("%s result read back differs (-stored +read):\n%s", name, d)
		}
	}
}

// TestUsageRoundTripAnswersAlike checks that a Usage made again from its
// export answers and merges as the one exported.
func TestUsageRoundTripAnswersAlike(t *testing.T) {
	var f filler
	var ts []lint.UsageTable
	f.fill(reflect.ValueOf(&ts).Elem())
	u := lint.UsageFrom(ts)
	again, ok := DecodeFile(EncodeFile(&FileEntry{Uses: u}))
	if !ok {
		t.Fatal("not read back")
	}
	for _, tab := range ts {
		if d := cmp.Diff(u.Table(tab.Name), again.Uses.Table(tab.Name)); d != "" {
			t.Errorf("Table(%s) differs:\n%s", tab.Name, d)
		}
		for _, c := range tab.Columns {
			if d := cmp.Diff(u.Column(tab.Name, c.Column), again.Uses.Column(tab.Name, c.Column)); d != "" {
				t.Errorf("Column(%s, %s) differs:\n%s", tab.Name, c.Column, d)
			}
			if d := cmp.Diff(u.InsertsWithout(tab.Name, c.Column), again.Uses.InsertsWithout(tab.Name, c.Column)); d != "" {
				t.Errorf("InsertsWithout(%s, %s) differs:\n%s", tab.Name, c.Column, d)
			}
		}
	}
	a, b := &lint.Usage{}, &lint.Usage{}
	a.Merge(u)
	a.Merge(u)
	b.Merge(again.Uses)
	b.Merge(again.Uses)
	if d := cmp.Diff(a.Export(), b.Export()); d != "" {
		t.Errorf("merged usage differs:\n%s", d)
	}
}
