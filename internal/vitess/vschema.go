// Package vitess reads the VSchema of a Vitess (or PlanetScale) database,
// the JSON that vtctldclient GetVSchema <keyspace> prints for one keyspace
// or GetSrvVSchema <cell> prints for all of them, and says which tables it
// spreads over shards and by which columns (lint.Sharding): a UNIQUE index
// of such a table is enforced by each shard on its own rows.
package vitess

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/guard-sql/guard/lint"
)

// VSchema is the routing schema of one keyspace or of several.
type VSchema struct {
	// File is the path the VSchema was read from, for messages.
	File string
	// Keyspaces are sorted by name. A GetVSchema file holds one, whose Name
	// is empty: that output does not say which keyspace it is.
	Keyspaces []*Keyspace
}

// Keyspace is the VSchema of one keyspace (vschema.Keyspace).
type Keyspace struct {
	Name     string
	Sharded  bool
	Vindexes map[string]*Vindex
	Tables   map[string]*Table
}

// Vindex is a vindex of a keyspace (vschema.Vindex).
type Vindex struct {
	Type   string
	Params map[string]string
	// Owner is the table whose inserts and deletes keep a lookup vindex's
	// lookup table in step; empty for a functional vindex.
	Owner string
}

// Table is a table of a keyspace (vschema.Table).
type Table struct {
	// Type is "", "sequence" or "reference".
	Type string
	// ColumnVindexes map columns to vindexes; the first is the primary
	// vindex, which picks the shard of each row.
	ColumnVindexes []ColumnVindex
	// Pinned is the keyspace id of a table kept whole on one shard.
	Pinned string
}

// ColumnVindex maps columns of a table to a vindex (vschema.ColumnVindex).
type ColumnVindex struct {
	Name    string
	Columns []string
}

// Unique reports whether the vindex maps each value to at most one
// keyspace id. The built-in non-unique vindexes are the lookups whose type
// does not end in _unique; every other type (hash, xxhash, binary_md5,
// numeric, unicode_loose_md5, multicol, a plugged-in one…) is taken as
// unique, as Vitess requires of a primary vindex.
func (v *Vindex) Unique() bool {
	return !v.Lookup() || strings.HasSuffix(v.Type, "_unique")
}

// Lookup reports whether the vindex is a lookup vindex (lookup,
// lookup_hash, consistent_lookup, lookup_unique, consistent_lookup_unique,
// lookup_unicodeloosemd5_hash…), backed by a lookup table.
func (v *Vindex) Lookup() bool { return strings.Contains(v.Type, "lookup") }

// WriteOnly reports whether a lookup vindex is still being backfilled
// (params write_only = true): vtgate writes its lookup rows but neither
// routes by it nor refuses anything with it.
func (v *Vindex) WriteOnly() bool { return strings.EqualFold(v.Params["write_only"], "true") }

// Load reads the VSchema file path.
func Load(path string) (*VSchema, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read vschema: %w", err)
	}
	return Parse(path, data)
}

// ErrNotVSchema is wrapped by the error of a JSON document that is neither
// a keyspace's VSchema nor a SrvVSchema.
var ErrNotVSchema = errors.New("not a VSchema")

// Parse reads a VSchema from data: a keyspace's VSchema (vtctldclient
// GetVSchema: sharded, vindexes, tables) or a SrvVSchema (GetSrvVSchema:
// keyspaces). Fields guard does not use are ignored, as Vitess ignores the
// fields it does not know; field names are accepted as protojson writes
// them (column_vindexes) and as it reads them too (columnVindexes). A
// document that is not JSON, or holds a value of the wrong type, is an
// error naming file:line:col; one that names a vindex it does not define,
// or leaves a sharded table without a primary vindex, is an error naming
// the keyspace and table, as Vitess refuses it.
func Parse(file string, data []byte) (*VSchema, error) {
	var doc docJSON
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, jsonError(file, data, err)
	}
	vs := &VSchema{File: file}
	if doc.Keyspaces != nil {
		for _, name := range sortedKeys(doc.Keyspaces) {
			ks, err := keyspace(file, name, doc.Keyspaces[name])
			if err != nil {
				return nil, err
			}
			vs.Keyspaces = append(vs.Keyspaces, ks)
		}
		return vs, nil
	}
	if doc.Sharded == nil && doc.Vindexes == nil && doc.Tables == nil {
		return nil, fmt.Errorf("%s: %w: want the JSON that vtctldclient GetVSchema <keyspace> prints (sharded, vindexes, tables) "+
			"or GetSrvVSchema <cell> prints (keyspaces)", file, ErrNotVSchema)
	}
	ks, err := keyspace(file, "", keyspaceJSON{Sharded: doc.Sharded, Vindexes: doc.Vindexes, Tables: doc.Tables})
	if err != nil {
		return nil, err
	}
	vs.Keyspaces = []*Keyspace{ks}
	return vs, nil
}

// The JSON shapes, with both spellings protojson accepts for a field whose
// name has an underscore. Only the fields guard reads are declared.
type (
	docJSON struct {
		Sharded   *bool                   `json:"sharded"`
		Vindexes  map[string]vindexJSON   `json:"vindexes"`
		Tables    map[string]tableJSON    `json:"tables"`
		Keyspaces map[string]keyspaceJSON `json:"keyspaces"`
	}
	keyspaceJSON struct {
		Sharded  *bool                 `json:"sharded"`
		Vindexes map[string]vindexJSON `json:"vindexes"`
		Tables   map[string]tableJSON  `json:"tables"`
	}
	vindexJSON struct {
		Type   string            `json:"type"`
		Params map[string]string `json:"params"`
		Owner  string            `json:"owner"`
	}
	tableJSON struct {
		Type                string             `json:"type"`
		ColumnVindexes      []columnVindexJSON `json:"column_vindexes"`
		ColumnVindexesCamel []columnVindexJSON `json:"columnVindexes"`
		Pinned              string             `json:"pinned"`
	}
	columnVindexJSON struct {
		Column  string   `json:"column"`
		Name    string   `json:"name"`
		Columns []string `json:"columns"`
	}
)

// keyspace checks the decoded keyspace name.
func keyspace(file, name string, kj keyspaceJSON) (*Keyspace, error) {
	ks := &Keyspace{Name: name, Sharded: kj.Sharded != nil && *kj.Sharded, Vindexes: map[string]*Vindex{}, Tables: map[string]*Table{}}
	for _, vname := range sortedKeys(kj.Vindexes) {
		v := kj.Vindexes[vname]
		if v.Type == "" {
			return nil, fmt.Errorf("%s: %s: vindex %q has no type", file, where(name, ""), vname)
		}
		ks.Vindexes[vname] = &Vindex{Type: v.Type, Params: v.Params, Owner: v.Owner}
	}
	for _, tname := range sortedKeys(kj.Tables) {
		t, err := table(file, ks, tname, kj.Tables[tname])
		if err != nil {
			return nil, err
		}
		ks.Tables[tname] = t
	}
	return ks, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// table checks one table's column vindexes against its keyspace.
func table(file string, ks *Keyspace, name string, tj tableJSON) (*Table, error) {
	t := &Table{Type: tj.Type, Pinned: tj.Pinned}
	cvs := tj.ColumnVindexes
	if len(cvs) == 0 {
		cvs = tj.ColumnVindexesCamel
	}
	at := where(ks.Name, name)
	for i, cv := range cvs {
		if cv.Column != "" && len(cv.Columns) > 0 {
			return nil, fmt.Errorf("%s: %s: column_vindexes[%d] sets both column and columns", file, at, i)
		}
		cols := cv.Columns
		if cv.Column != "" {
			cols = []string{cv.Column}
		}
		if len(cols) == 0 {
			return nil, fmt.Errorf("%s: %s: column_vindexes[%d] names no column", file, at, i)
		}
		v := ks.Vindexes[cv.Name]
		if v == nil {
			return nil, fmt.Errorf("%s: %s: column_vindexes[%d] names vindex %q, which the keyspace's vindexes do not define", file, at, i, cv.Name)
		}
		if i == 0 && ks.Sharded && !v.Unique() {
			return nil, fmt.Errorf("%s: %s: the primary vindex %q (column_vindexes[0]) is a %s, which is not unique", file, at, cv.Name, v.Type)
		}
		t.ColumnVindexes = append(t.ColumnVindexes, ColumnVindex{Name: cv.Name, Columns: cols})
	}
	if ks.Sharded && len(t.ColumnVindexes) == 0 && !t.wholeOnOneShard() {
		return nil, fmt.Errorf("%s: %s: a table of a sharded keyspace needs a primary vindex (column_vindexes), unless it is a reference, sequence or pinned table", file, at)
	}
	return t, nil
}

// wholeOnOneShard reports whether every row of the table is on one shard,
// or every shard holds all of them: a sequence, a reference table or a
// pinned one.
func (t *Table) wholeOnOneShard() bool {
	return t.Type == "sequence" || t.Type == "reference" || t.Pinned != ""
}

// where names a keyspace and a table for messages.
func where(keyspace, table string) string {
	ks := "keyspace"
	if keyspace != "" {
		ks = "keyspace " + keyspace
	}
	if table == "" {
		return ks
	}
	return ks + ": table " + table
}

// Sharding returns the tables the VSchema spreads over shards, with the
// columns of their primary vindex and the unique lookup vindexes they own.
// A table listed by several keyspaces (a MoveTables in flight, or names
// kept apart by require_explicit_routing) is taken from the first sharded
// one by name: the one where its index may hold per shard only.
func (vs *VSchema) Sharding() *lint.Sharding {
	sh := &lint.Sharding{Tables: map[string]*lint.ShardedTable{}}
	for _, ks := range vs.Keyspaces {
		if !ks.Sharded {
			continue
		}
		names := make([]string, 0, len(ks.Tables))
		for name := range ks.Tables {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			t := ks.Tables[name]
			key := strings.ToLower(name)
			if t.wholeOnOneShard() || len(t.ColumnVindexes) == 0 || sh.Tables[key] != nil {
				continue
			}
			st := &lint.ShardedTable{Name: name, Keyspace: ks.Name, Primary: ks.vindex(t.ColumnVindexes[0])}
			for _, cv := range t.ColumnVindexes[1:] {
				v := ks.Vindexes[cv.Name]
				if !v.Lookup() || !v.Unique() || !strings.EqualFold(v.Owner, name) {
					continue // a lookup another table owns is kept by that table's writes, not this one's
				}
				if v.WriteOnly() {
					st.Backfilling = append(st.Backfilling, ks.vindex(cv))
				} else {
					st.Lookups = append(st.Lookups, ks.vindex(cv))
				}
			}
			sh.Tables[key] = st
		}
	}
	return sh
}

func (ks *Keyspace) vindex(cv ColumnVindex) lint.Vindex {
	return lint.Vindex{Name: cv.Name, Type: ks.Vindexes[cv.Name].Type, Columns: cv.Columns}
}

// Keyspace returns the one keyspace of the VSchema, or, of several, the
// one that lists table; nil when none does or several do.
func (vs *VSchema) Keyspace(table string) *Keyspace {
	if len(vs.Keyspaces) == 1 {
		return vs.Keyspaces[0]
	}
	var found *Keyspace
	for _, ks := range vs.Keyspaces {
		for name := range ks.Tables {
			if strings.EqualFold(name, table) {
				if found != nil {
					return nil
				}
				found = ks
			}
		}
	}
	return found
}

// jsonError is err of the JSON of file, placed at line:col where the
// decoder says where: the offending character of a syntax error, the last
// character of a value of the wrong type (the decoder's offset is just
// past either).
func jsonError(file string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := lineCol(data, syn.Offset-1)
		return fmt.Errorf("%s:%d:%d: %v", file, line, col, syn)
	case errors.As(err, &typ):
		line, col := lineCol(data, typ.Offset-1)
		field := typ.Field
		if field == "" {
			field = "the document"
		}
		return fmt.Errorf("%s:%d:%d: %s: want %s, found a JSON %s", file, line, col, field, jsonKind(typ.Type), typ.Value)
	}
	return fmt.Errorf("%s: %v", file, err)
}

// jsonKind names the JSON value a Go type decodes from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "a number"
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	line, col = 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}
