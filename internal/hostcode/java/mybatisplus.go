package java

import (
	"bytes"
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// Entity is a MyBatis-Plus entity class as its declaration maps it to the
// database: the table of @TableName, the columns of @TableField and
// @TableId where they differ from the default camelCase → snake_case, and
// the @Version property the OptimisticLockerInnerInterceptor compares.
type Entity struct {
	// Class is the simple class name (ProductSkuDO), Package its package.
	Class, Package string
	// Table is the @TableName value; empty when the class does not name one.
	Table string
	// Columns maps a property to the column @TableField or @TableId names.
	Columns map[string]string
	// NotColumns are the properties @TableField(exist = false) keeps out of
	// the table.
	NotColumns map[string]bool
	// Key is the @TableId property; empty means "id".
	Key string
	// Version is the @Version property; empty when the entity has none.
	Version string
}

// EntityIndex holds the MyBatis-Plus entity classes of every Java file of a
// run, by simple class name, so that a write in one file finds the table
// and columns its entity class declares in another.
type EntityIndex struct {
	byName map[string][]*Entity
	// HasTable reports whether the schema has a table; nil when there is
	// no schema. It decides whether a DO/PO/Entity suffix is part of the
	// default table name.
	HasTable func(name string) bool
}

// NewEntityIndex indexes entities; hasTable may be nil.
func NewEntityIndex(entities []*Entity, hasTable func(string) bool) *EntityIndex {
	ix := &EntityIndex{byName: map[string][]*Entity{}, HasTable: hasTable}
	for _, e := range entities {
		ix.byName[e.Class] = append(ix.byName[e.Class], e)
	}
	return ix
}

// lookup returns the entity class named class: the one of that package
// when several share the simple name, nil when none or no one is known.
func (ix *EntityIndex) lookup(class, pkg string) *Entity {
	if ix == nil {
		return nil
	}
	es := ix.byName[class]
	if len(es) == 1 {
		return es[0]
	}
	for _, e := range es {
		if pkg != "" && e.Package == pkg {
			return e
		}
	}
	return nil
}

// plusEntity is what a write knows of its entity class: the declaration
// when some file of the run holds it, and the table it writes.
type plusEntity struct {
	class string
	decl  *Entity
	table string
}

// entity resolves class as the file at x names it: the declaration an
// import or the index points to, and its table — @TableName, else the
// default snake_case of the class name, without a DO/PO/Entity suffix
// when the schema has the shorter table and not the longer.
func (x *javaFile) entity(class string) plusEntity {
	pe := plusEntity{class: class}
	if class == "" {
		return pe
	}
	x.usedEntities = true
	pe.decl = x.entities.lookup(class, x.imports[class])
	if pe.decl != nil && pe.decl.Table != "" {
		pe.table = pe.decl.Table
		return pe
	}
	pe.table = stmt.PropertyColumn(strings.ToLower(class[:1]) + class[1:])
	if x.entities == nil || x.entities.HasTable == nil || x.entities.HasTable(pe.table) {
		return pe
	}
	for _, suffix := range []string{"DO", "PO", "Entity"} {
		if short, ok := strings.CutSuffix(class, suffix); ok && short != "" {
			t := stmt.PropertyColumn(strings.ToLower(short[:1]) + short[1:])
			if x.entities.HasTable(t) {
				pe.table = t
			}
		}
	}
	return pe
}

// column is the column property p of the entity maps to.
func (pe plusEntity) column(p string) string {
	if pe.decl != nil {
		if c, ok := pe.decl.Columns[p]; ok {
			return c
		}
	}
	return stmt.PropertyColumn(p)
}

// isColumn reports whether property p is a column of the table.
func (pe plusEntity) isColumn(p string) bool {
	return pe.decl == nil || !pe.decl.NotColumns[p]
}

// keyColumn is the column updateById names in its WHERE.
func (pe plusEntity) keyColumn() string {
	if pe.decl != nil && pe.decl.Key != "" {
		return pe.column(pe.decl.Key)
	}
	return "id"
}

// plusAnnotations are the annotations that make a class worth indexing.
var plusAnnotations = [][]byte{[]byte("@TableName"), []byte("@TableField"), []byte("@TableId"), []byte("@Version")}

// JavaEntities returns the MyBatis-Plus entity classes a Java file declares
// (classes carrying @TableName, or fields carrying @TableField, @TableId or
// @Version). It reads no file that names none of those annotations.
func JavaEntities(path string, src []byte) []*Entity {
	hit := false
	for _, a := range plusAnnotations {
		if bytes.Contains(src, a) {
			hit = true
			break
		}
	}
	if !hit {
		return nil
	}
	x := readJavaFile(path, src)
	if x == nil {
		return nil
	}
	pkg := x.packageName()
	var out []*Entity
	for i, t := range x.toks {
		if t.kind != javaIdent || t.text != "class" || !x.isIdent(i+1) || x.is(i-1, ".") {
			continue
		}
		body := i + 2
		for body < len(x.toks) && !x.is(body, "{") && !x.is(body, ";") {
			body++
		}
		if !x.is(body, "{") {
			continue
		}
		e := &Entity{Class: x.toks[i+1].text, Package: pkg, Columns: map[string]string{}, NotColumns: map[string]bool{}}
		if a := x.annotationBefore(i, "TableName"); a >= 0 {
			e.Table = x.plusAnnotationValue(a)
		}
		x.entityFields(e, body)
		if e.Table != "" || len(e.Columns) > 0 || len(e.NotColumns) > 0 || e.Key != "" || e.Version != "" {
			out = append(out, e)
		}
	}
	return out
}

// annotationBefore returns the token of annotation name among those that
// stand before the declaration keyword at token i, or -1.
func (x *javaFile) annotationBefore(i int, name string) int {
	for _, k := range x.annotationTokens(i) {
		if t := x.toks[k].text; t == name || strings.HasSuffix(t, "."+name) {
			return k
		}
	}
	return -1
}

// plusAnnotationValue returns the string an annotation at token a gives its
// value: @A("x") or @A(value = "x"); "" otherwise.
func (x *javaFile) plusAnnotationValue(a int) string {
	v, _ := x.annotationArg(a, "value")
	return v
}

// annotationArg returns the literal an annotation at token a gives
// attribute name (the bare first literal counts as value), and whether the
// attribute is written.
func (x *javaFile) annotationArg(a int, name string) (string, bool) {
	v, ok := x.annotationAt(a).Args[name]
	return v, ok
}

// entityFields reads the annotated fields of the class body at '{' body.
func (x *javaFile) entityFields(e *Entity, body int) {
	end := x.match[body]
	for k := body + 1; k < end; k++ {
		t := x.toks[k]
		if x.is(k, "{") {
			k = x.match[k]
			continue
		}
		if t.kind != javaAnnot || x.encl[k] != body {
			continue
		}
		name := t.text[strings.LastIndexByte(t.text, '.')+1:]
		if name != "TableField" && name != "TableId" && name != "Version" {
			continue
		}
		field := x.fieldName(k)
		if field == "" {
			continue
		}
		switch name {
		case "TableField":
			if v, ok := x.annotationArg(k, "exist"); ok && v == "false" {
				e.NotColumns[field] = true
			}
			if c := x.plusAnnotationValue(k); c != "" {
				e.Columns[field] = strings.Trim(c, "`")
			}
		case "TableId":
			e.Key = field
			if c := x.plusAnnotationValue(k); c != "" {
				e.Columns[field] = strings.Trim(c, "`")
			}
		case "Version":
			e.Version = field
		}
	}
}

// fieldName returns the name of the field an annotation at token a stands
// on: the name before the first ';' or '=' after it, "" for a method.
func (x *javaFile) fieldName(a int) string {
	k := a + 1
	if x.is(k, "(") {
		k = x.match[k] + 1
	}
	for ; k < len(x.toks); k++ {
		switch {
		case x.is(k, "(") && x.toks[k-1].kind == javaAnnot:
			k = x.match[k]
		case x.is(k, "(") || x.is(k, "{"):
			return ""
		case x.is(k, ";") || x.is(k, "="):
			if x.isIdent(k - 1) {
				return x.toks[k-1].text
			}
			return ""
		}
	}
	return ""
}

// MayUseEntities reports whether the extraction of a file with text src may
// ask the run's entity classes (File.UsesEntities): the file calls
// updateById, saveOrUpdate, update or lambdaUpdate. A file for which it
// is false is extracted alike with or without them, so it need not wait
// for every entity class of the run to be read.
func MayUseEntities(src []byte) bool {
	return bytes.Contains(src, []byte("updateById")) || bytes.Contains(src, []byte("saveOrUpdate")) ||
		callsName(src, "update") || callsName(src, "lambdaUpdate")
}

// callsName reports whether name stands in src as a word followed by '('
// (white space between allowed).
func callsName(src []byte, name string) bool {
	for i := 0; ; {
		k := bytes.Index(src[i:], []byte(name))
		if k < 0 {
			return false
		}
		at := i + k
		i = at + len(name)
		if at > 0 && javaIdentPart(src[at-1]) {
			continue
		}
		j := i
		for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
			j++
		}
		if j < len(src) && src[j] == '(' {
			return true
		}
	}
}
