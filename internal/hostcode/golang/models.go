package golang

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// GoModel is a Go struct type an ORM maps to a table: GORM by its
// TableName method, `gorm` tags and naming strategy, sqlx by its `db` tags.
type GoModel struct {
	// Dir is the folder of the file declaring the type, slash-separated.
	Dir  string
	Name string
	// Table is the constant TableName() returns; "" when the type has no
	// TableName method.
	Table string
	// TableUnknown is set when TableName() returns something guard cannot
	// compute (a field, a call): the table is then unknown.
	TableUnknown bool
	// Gorm is set when the type shows GORM: `gorm` tags, an embedded
	// gorm.Model, a TableName method or an optimistic lock field.
	Gorm   bool
	Fields []GoModelField
	embeds []goEmbed
	// File and Line are where the type is declared.
	File string
	Line int
	pos  token.Pos
}

// GoModelField is one mapped field of a GoModel.
type GoModelField struct {
	Name string
	// Column is GORM's column: the `column:` tag, else the field's name in
	// snake_case.
	Column string
	// DB is the name sqlx maps the field to: the `db` tag, else the field's
	// name in lower case.
	DB         string
	PrimaryKey bool
	// Version is set on a gorm.io/plugin/optimisticlock Version field.
	Version bool
	// SoftDelete is set on a gorm.DeletedAt field: GORM adds
	// `deleted_at IS NULL` to every write.
	SoftDelete bool
	// Bool is set on a bool (or *bool) field: an on/off switch, never a
	// counter nor a state machine, whatever its column is named.
	Bool bool
}

// goEmbed is an embedded struct whose fields a model promotes.
type goEmbed struct {
	qualifier, name string
	importPath      string
}

// GoModels indexes the model types of every Go file of a run, so that a
// write in one file finds the table and columns of a type declared in
// another. The zero value is empty; a nil *GoModels knows nothing.
type GoModels struct {
	byName map[string][]*GoModel
	// HasTable, when set, reports whether the schema has a table: GORM's
	// default name of a type is tried plural first, then singular.
	HasTable func(string) bool
	// TablePrefix and SingularTable are the naming strategy a file of the
	// run configures (schema.NamingStrategy{TablePrefix: "t_"}).
	TablePrefix   string
	SingularTable bool
}

// GoModelsWorthReading reports whether a Go file may declare models or a
// naming strategy: it mentions gorm, a TableName method or `db` tags.
func GoModelsWorthReading(src []byte) bool {
	return bytes.Contains(src, []byte("gorm")) || bytes.Contains(src, []byte("TableName")) || bytes.Contains(src, []byte(`db:"`))
}

// ReadGoModels parses one Go file and returns the models it declares and
// the naming strategy it configures, for GoModels.Add.
func ReadGoModels(filePath string, src []byte) *GoFileModels {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, filePath, src, parser.SkipObjectResolution)
	if f == nil {
		return nil
	}
	fm := goFileModels(path.Dir(strings.ReplaceAll(filePath, "\\", "/")), f)
	for _, md := range fm.Models {
		md.File, md.Line = filePath, fset.Position(md.pos).Line
	}
	return fm
}

// Each calls fn with every model type of the run.
func (m *GoModels) Each(fn func(*GoModel)) {
	if m == nil {
		return
	}
	names := make([]string, 0, len(m.byName))
	for n := range m.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, md := range m.byName[n] {
			fn(md)
		}
	}
}

// GoFileModels is what one file declares: its models and, when it
// configures one, GORM's naming strategy.
type GoFileModels struct {
	Models        []*GoModel
	TablePrefix   string
	SingularTable bool
	naming        bool
}

// Add merges what one file declares.
func (m *GoModels) Add(fm *GoFileModels) {
	if fm == nil {
		return
	}
	if m.byName == nil {
		m.byName = map[string][]*GoModel{}
	}
	for _, md := range fm.Models {
		m.byName[md.Name] = append(m.byName[md.Name], md)
	}
	if fm.naming {
		m.TablePrefix, m.SingularTable = fm.TablePrefix, fm.SingularTable
	}
}

// goFileModels reads the struct types, TableName methods and naming
// strategy of a parsed file.
func goFileModels(dir string, f *ast.File) *GoFileModels {
	imports := map[string]string{}
	for _, spec := range f.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		name := goPackageBase(p)
		if spec.Name != nil {
			name = spec.Name.Name
		}
		imports[name] = p
	}
	out := &GoFileModels{}
	byName := map[string]*GoModel{}
	consts := map[string]string{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range gd.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				st, ok := s.Type.(*ast.StructType)
				if !ok {
					continue
				}
				md := &GoModel{Dir: dir, Name: s.Name.Name, pos: s.Pos()}
				md.readFields(st, imports, "")
				out.Models = append(out.Models, md)
				byName[md.Name] = md
			case *ast.ValueSpec:
				if gd.Tok != token.CONST {
					continue
				}
				for i, n := range s.Names {
					if i < len(s.Values) {
						if lit, ok := s.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							if v, err := strconv.Unquote(lit.Value); err == nil {
								consts[n.Name] = v
							}
						}
					}
				}
			}
		}
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != "TableName" || fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Body == nil {
			continue
		}
		md := byName[goRecvTypeName(fd.Recv.List[0].Type)]
		if md == nil {
			continue
		}
		md.Gorm = true
		md.TableUnknown = true
		if len(fd.Body.List) == 1 {
			if ret, ok := fd.Body.List[0].(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
				switch v := ret.Results[0].(type) {
				case *ast.BasicLit:
					if s, err := strconv.Unquote(v.Value); err == nil && v.Kind == token.STRING {
						md.Table, md.TableUnknown = s, false
					}
				case *ast.Ident:
					if s, ok := consts[v.Name]; ok {
						md.Table, md.TableUnknown = s, false
					}
				}
			}
		}
	}
	if p, ok := imports["schema"]; ok && p == "gorm.io/gorm/schema" {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if sel, ok := lit.Type.(*ast.SelectorExpr); !ok || sel.Sel.Name != "NamingStrategy" {
				return true
			}
			out.naming = true
			for _, el := range lit.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				switch k, _ := kv.Key.(*ast.Ident); {
				case k == nil:
				case k.Name == "TablePrefix":
					if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						out.TablePrefix, _ = strconv.Unquote(lit.Value)
					}
				case k.Name == "SingularTable":
					id, _ := kv.Value.(*ast.Ident)
					out.SingularTable = id != nil && id.Name == "true"
				}
			}
			return false
		})
	}
	return out
}

// goRecvTypeName is the type name of a method receiver (T, *T).
func goRecvTypeName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// readFields records the mapped fields of a struct; prefix is the column
// prefix of an embedded struct (`gorm:"embedded;embeddedPrefix:x_"`).
func (md *GoModel) readFields(st *ast.StructType, imports map[string]string, prefix string) {
	for _, fl := range st.Fields.List {
		tag := ""
		if fl.Tag != nil {
			if s, err := strconv.Unquote(fl.Tag.Value); err == nil {
				tag = s
			}
		}
		gtag := reflect.StructTag(tag).Get("gorm")
		settings := goGormSettings(gtag)
		if gtag != "" {
			md.Gorm = true
		}
		if _, ignored := settings["-"]; ignored {
			continue
		}
		qual, tname := goTypeName(fl.Type)
		if qual != "" && tname == "Version" && strings.HasSuffix(imports[qual], "optimisticlock") {
			md.Gorm = true
		}
		if len(fl.Names) == 0 { // embedded
			if qual == "gorm" && tname == "Model" {
				md.Gorm = true
				md.Fields = append(md.Fields,
					GoModelField{Name: "ID", Column: prefix + "id", DB: "id", PrimaryKey: true},
					GoModelField{Name: "CreatedAt", Column: prefix + "created_at", DB: "createdat"},
					GoModelField{Name: "UpdatedAt", Column: prefix + "updated_at", DB: "updatedat"},
					GoModelField{Name: "DeletedAt", Column: prefix + "deleted_at", DB: "deletedat", SoftDelete: true})
				continue
			}
			if tname != "" {
				md.embeds = append(md.embeds, goEmbed{qualifier: qual, name: tname, importPath: imports[qual]})
			}
			continue
		}
		if inner, ok := fl.Type.(*ast.StructType); ok {
			if _, emb := settings["EMBEDDED"]; emb {
				md.readFields(inner, imports, prefix+settings["EMBEDDEDPREFIX"])
			}
			continue
		}
		dbTag, _, _ := strings.Cut(reflect.StructTag(tag).Get("db"), ",")
		for _, n := range fl.Names {
			if !n.IsExported() {
				continue
			}
			f := GoModelField{Name: n.Name, Column: prefix + GoColumnName(n.Name), DB: dbTag}
			if c := settings["COLUMN"]; c != "" {
				f.Column = c
			}
			if f.DB == "" {
				f.DB = strings.ToLower(n.Name)
			}
			_, pk1 := settings["PRIMARYKEY"]
			_, pk2 := settings["PRIMARY_KEY"]
			f.PrimaryKey = pk1 || pk2
			f.Version = qual != "" && tname == "Version" && strings.HasSuffix(imports[qual], "optimisticlock")
			f.SoftDelete = tname == "DeletedAt" && (qual == "gorm" || qual == "soft_delete")
			f.Bool = qual == "" && tname == "bool"
			md.Fields = append(md.Fields, f)
		}
	}
}

// goTypeName splits a field type into its package qualifier and name,
// past a pointer: *gorm.Model is ("gorm", "Model").
func goTypeName(e ast.Expr) (qual, name string) {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	switch t := e.(type) {
	case *ast.Ident:
		return "", t.Name
	case *ast.SelectorExpr:
		if id, ok := t.X.(*ast.Ident); ok {
			return id.Name, t.Sel.Name
		}
	}
	return "", ""
}

// goGormSettings reads a `gorm` tag (`column:stock_num;not null`) into
// its settings by upper-cased key.
func goGormSettings(tag string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(tag, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, ":")
		k = strings.ToUpper(strings.TrimSpace(k))
		if k == "-" || strings.HasPrefix(k, "-") {
			out["-"] = ""
			continue
		}
		out[k] = strings.TrimSpace(v)
	}
	return out
}

// Lookup finds the model a type reference names in a file of folder dir:
// `qualifier.Name` through the file's import of qualifier (importPath), a
// bare Name in the same folder. Among types of that name, the one whose
// folder ends like the import path wins; nil when none or several match.
func (m *GoModels) Lookup(dir, importPath, name string) *GoModel {
	if m == nil {
		return nil
	}
	cands := m.byName[name]
	var best []*GoModel
	bestScore := 0
	for _, c := range cands {
		score := 0
		if importPath == "" {
			if c.Dir == dir {
				score = 1
			}
		} else {
			score = goPathSuffixMatch(importPath, c.Dir)
		}
		switch {
		case score > bestScore:
			best, bestScore = []*GoModel{c}, score
		case score == bestScore && score > 0:
			best = append(best, c)
		}
	}
	if len(best) != 1 {
		return nil
	}
	return best[0]
}

// goPathSuffixMatch counts the trailing path elements an import path and a
// folder share.
func goPathSuffixMatch(importPath, dir string) int {
	a, b := strings.Split(importPath, "/"), strings.Split(dir, "/")
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] && b[len(b)-1-n] != "." && b[len(b)-1-n] != ".." {
		n++
	}
	return n
}

// AllFields returns the model's fields with those of its embedded structs,
// found in the index.
func (m *GoModels) AllFields(md *GoModel) []GoModelField {
	return m.allFields(md, 0)
}

func (m *GoModels) allFields(md *GoModel, depth int) []GoModelField {
	out := append([]GoModelField(nil), md.Fields...)
	if depth > 4 {
		return out
	}
	for _, e := range md.embeds {
		inner := m.Lookup(md.Dir, e.importPath, e.name)
		if e.qualifier == "" {
			inner = m.Lookup(md.Dir, "", e.name)
		}
		if inner != nil && inner != md {
			out = append(out, m.allFields(inner, depth+1)...)
		}
	}
	return out
}

// IsGorm reports whether the model, or a struct it embeds, shows GORM.
func (m *GoModels) IsGorm(md *GoModel) bool {
	if md.Gorm {
		return true
	}
	for _, e := range md.embeds {
		inner := m.Lookup(md.Dir, e.importPath, e.name)
		if e.qualifier == "" {
			inner = m.Lookup(md.Dir, "", e.name)
		}
		if inner != nil && inner != md && inner.Gorm {
			return true
		}
	}
	return false
}

// TableOf is the table GORM writes for the model: its TableName(), else
// the naming strategy's name of the type (snake_case, plural unless the
// strategy is singular, with its prefix); of the plural and the singular
// the one the schema has. ok is false when TableName() cannot be computed.
func (m *GoModels) TableOf(md *GoModel) (table string, ok bool) {
	if md.TableUnknown {
		return "", false
	}
	if md.Table != "" {
		return md.Table, true
	}
	snake := GoColumnName(md.Name)
	plural := m.TablePrefix + goPlural(snake)
	single := m.TablePrefix + snake
	if m.SingularTable {
		plural = single
	}
	if m.HasTable != nil && !m.HasTable(plural) && m.HasTable(single) {
		return single, true
	}
	return plural, true
}

// GoColumnName is GORM's default column name of a field (and table name of
// a type, before the plural): snake_case that keeps initialisms whole
// (UserID → user_id, HTTPCode → http_code).
func GoColumnName(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		upper := r >= 'A' && r <= 'Z'
		if upper && i > 0 {
			prev := rs[i-1]
			prevLower := prev >= 'a' && prev <= 'z' || prev >= '0' && prev <= '9'
			nextLower := i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z'
			if prevLower || (nextLower && prev >= 'A' && prev <= 'Z') {
				b.WriteByte('_')
			}
		}
		if upper {
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// goUncountable are the words GORM's inflection leaves alone in the plural.
var goUncountable = map[string]bool{
	"equipment": true, "information": true, "rice": true, "money": true, "species": true, "series": true,
	"fish": true, "sheep": true, "jeans": true, "police": true,
}

// goPlural is the English plural of the last word of a snake_case name, by
// the common rules of GORM's inflection.
func goPlural(s string) string {
	last := s[strings.LastIndexByte(s, '_')+1:]
	switch {
	case goUncountable[last]:
		return s
	case strings.HasSuffix(s, "person"):
		return strings.TrimSuffix(s, "person") + "people"
	case strings.HasSuffix(s, "s") || strings.HasSuffix(s, "x") || strings.HasSuffix(s, "z") ||
		strings.HasSuffix(s, "ch") || strings.HasSuffix(s, "sh"):
		return s + "es"
	case len(s) > 1 && strings.HasSuffix(s, "y") && !strings.ContainsRune("aeiou", rune(s[len(s)-2])):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}

// runModels returns the model types the file's GORM writes are read
// against, and records that the extraction asked them (File.UsesModels).
func (x *goExtractor) runModels() *GoModels {
	x.usedModels = true
	return x.models
}

// MayUseModels reports whether the extraction of a Go file with text src
// may ask the model types of the run (File.UsesModels): the file names
// gorm. A file for which it is false seldom asks, and the driver extracts
// it without waiting for every file's models.
func MayUseModels(src []byte) bool { return bytes.Contains(src, []byte("gorm")) }
