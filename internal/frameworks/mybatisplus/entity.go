package mybatisplus

import (
	"bytes"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
)

// marks are the annotations that make a file worth reading.
var marks = [][]byte{[]byte("@TableName"), []byte("@TableField"), []byte("@TableId"), []byte("@Version")}

// Entities returns the MyBatis-Plus entity classes a Java file declares,
// nested ones included: classes carrying @TableName, or fields carrying
// @TableField, @TableId or @Version. It reads no file that names none of
// those annotations.
func Entities(path string, src []byte) []*java.Entity {
	hit := false
	for _, a := range marks {
		if bytes.Contains(src, a) {
			hit = true
			break
		}
	}
	if !hit {
		return nil
	}
	var out []*java.Entity
	for _, d := range java.Declarations(path, src) {
		out = entities(out, d, strings.TrimSuffix(d.Qualified, d.Name))
	}
	return out
}

// entities adds the entity classes among d and the types inside it; pkg
// is the file's package with its final dot.
func entities(out []*java.Entity, d java.TypeDecl, pkg string) []*java.Entity {
	if d.Kind == "class" {
		e := &java.Entity{Class: d.Name, Package: strings.TrimSuffix(pkg, "."), Columns: map[string]string{}, NotColumns: map[string]bool{}}
		if a, ok := annotation(d.Annotations, "TableName"); ok {
			e.Table = a.Args["value"]
		}
		for _, f := range d.Fields {
			field(e, f)
		}
		if e.Table != "" || len(e.Columns) > 0 || len(e.NotColumns) > 0 || e.Key != "" || e.Version != "" {
			out = append(out, e)
		}
	}
	for _, in := range d.Inner {
		out = entities(out, in, pkg)
	}
	return out
}

// annotation returns the first of as named simple, in any package.
func annotation(as []java.Annotation, simple string) (java.Annotation, bool) {
	for _, a := range as {
		if simpleName(a.Name) == simple {
			return a, true
		}
	}
	return java.Annotation{}, false
}

// field records what the annotations of field f say of its column.
func field(e *java.Entity, f java.FieldDecl) {
	for _, a := range f.Annotations {
		switch simpleName(a.Name) {
		case "TableField":
			if v, ok := a.Args["exist"]; ok && v == "false" {
				e.NotColumns[f.Name] = true
			}
			if c := a.Args["value"]; c != "" {
				e.Columns[f.Name] = strings.Trim(c, "`")
			}
		case "TableId":
			e.Key = f.Name
			if c := a.Args["value"]; c != "" {
				e.Columns[f.Name] = strings.Trim(c, "`")
			}
		case "Version":
			e.Version = f.Name
		}
	}
}

// simpleName is the last part of a dotted name.
func simpleName(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }

// MayUseEntities reports whether the extraction of a file with text src may
// ask the run's entity classes (java.File.UsesEntities): the file calls
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
		if at > 0 && identPart(src[at-1]) {
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

// identPart reports whether c may continue a Java identifier.
func identPart(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
