// Package tkmybatis teaches guard tk.mybatis's generic mappers: an
// interface that extends tk.mybatis.mapper.common.Mapper<T> (directly or
// through a base interface of the project) gets updateByPrimaryKey,
// updateByPrimaryKeySelective, updateByExample[Selective] and
// deleteByExample from the library, which writes their SQL from the entity
// class T: its @Table, the @Column of each field (camelCase → snake_case
// otherwise), its @Id and its @Version. No file of the project holds that
// SQL; this package renders it, so that a read-then-write through such a
// mapper is judged as one through a MyBatis Generator mapper.
package tkmybatis

import (
	"bytes"
	"slices"
	"strings"
	"sync"

	"github.com/guard-sql/guard/internal/frameworks"
	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

func init() {
	frameworks.Register(frameworks.Framework{Name: Name, Exts: []string{".java"}, New: func() frameworks.Linker { return &linker{} }})
}

// Name is the framework's name in stmt.MapperCall.Framework.
const Name = "tk.mybatis"

// tkPackage holds the library's mapper interfaces.
const tkPackage = "tk.mybatis.mapper."

// The packages of the annotations an entity class is mapped by.
var (
	persistence = []string{"javax.persistence", "jakarta.persistence"}
	tkVersion   = []string{"tk.mybatis.mapper.annotation"}
)

// builder is the Fragment.Builder of the statements rendered here.
const builder = "tk.mybatis generic Mapper<T>"

// linker is the framework's work on one run: the types of every Java file
// that may take part (mapper interfaces, entity classes and their
// superclasses), by qualified name.
type linker struct {
	mu    sync.Mutex
	types map[string]*declared
	// simple maps a simple type name to the qualified names so named.
	simple map[string][]string
	// mappers caches the resolution of each mapper interface a call names.
	mappers map[string]*mapper
	// pending are the files that may declare a mapper or an entity but do
	// not name tk.mybatis: they are read only when some file does.
	pending []pendingFile
}

// pendingFile is a source Index keeps unread.
type pendingFile struct {
	path string
	src  []byte
}

// declared is one type of the run and the file it stands in.
type declared struct {
	java.TypeDecl
	file string
}

// worth are the words a file must hold to declare a mapper interface, an
// entity class or a superclass of one.
var worth = [][]byte{[]byte("Mapper<"), []byte("persistence"), []byte("tk.mybatis")}

// Index keeps the types of a file that names a mapper or the annotations
// of an entity; a file that names none is not lexed, and one that does not
// name tk.mybatis is lexed only if another file of the run does (a JPA or
// MyBatis-Plus project pays nothing for it).
func (l *linker) Index(path string, src []byte) {
	if !slices.ContainsFunc(worth, func(w []byte) bool { return bytes.Contains(src, w) }) {
		return
	}
	if !bytes.Contains(src, []byte("tk.mybatis")) {
		l.mu.Lock()
		l.pending = append(l.pending, pendingFile{path, src})
		l.mu.Unlock()
		return
	}
	decls := java.Declarations(path, src)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.add(path, decls)
}

// add keeps the types decls of the file path; l.mu is held.
func (l *linker) add(path string, decls []java.TypeDecl) {
	if l.types == nil {
		l.types, l.simple = map[string]*declared{}, map[string][]string{}
	}
	for i := range decls {
		d := &declared{TypeDecl: decls[i], file: path}
		if _, dup := l.types[d.Qualified]; dup {
			continue // the first of two files declaring one class wins
		}
		l.types[d.Qualified] = d
		l.simple[d.Name] = append(l.simple[d.Name], d.Qualified)
	}
}

// readPending reads the files Index kept when some file of the run names
// tk.mybatis, in path order, and lets them go; l.mu is held.
func (l *linker) readPending() {
	if l.types != nil {
		slices.SortFunc(l.pending, func(a, b pendingFile) int { return strings.Compare(a.path, b.path) })
		for _, p := range l.pending {
			l.add(p.path, java.Declarations(p.path, p.src))
		}
	}
	l.pending = nil
}

// lookup returns the type named name (qualified, or a simple name one
// type of the run has), nil when the run does not declare it.
func (l *linker) lookup(name string) *declared {
	if d := l.types[name]; d != nil {
		return d
	}
	s := name[strings.LastIndexByte(name, '.')+1:]
	if qs := l.simple[s]; len(qs) == 1 {
		return l.types[qs[0]]
	}
	return nil
}

// mapper is a mapper interface of the run that tk.mybatis implements, with
// the entity it maps.
type mapper struct {
	iface  *declared
	entity *entity
}

// mapperOf resolves interface name: the entity is the type argument it
// passes up its extends chain to a tk.mybatis interface. A simple name
// several interfaces of the run have (a file that imports their package
// with .*) resolves when they all map the same table. Nil when the chain
// does not reach tk.mybatis, or the entity is not a class of the run.
func (l *linker) mapperOf(name string) *mapper {
	if m, ok := l.mappers[name]; ok {
		return m
	}
	if l.mappers == nil {
		l.mappers = map[string]*mapper{}
	}
	var m *mapper
	if d := l.types[name]; d != nil {
		m = l.resolveMapper(d)
	} else if qs := l.simple[simpleName(name)]; len(qs) > 0 && !strings.Contains(name, ".") {
		for i, q := range qs {
			one := l.resolveMapper(l.types[q])
			if one == nil || i > 0 && one.entity.table != m.entity.table {
				m = nil
				break
			}
			if i == 0 {
				m = one
			}
		}
	}
	l.mappers[name] = m
	return m
}

// resolveMapper is mapperOf of the interface d.
func (l *linker) resolveMapper(d *declared) *mapper {
	if d.Kind != "interface" {
		return nil
	}
	arg, ok := l.tkArgument(d, nil, 0)
	if !ok {
		return nil
	}
	e := l.entityOf(arg)
	if e == nil {
		return nil
	}
	return &mapper{iface: d, entity: e}
}

// tkArgument follows the extends clauses of interface d to a tk.mybatis
// interface and returns the type that stands for its T. bound maps d's
// type parameters to what the interface below passed for them.
func (l *linker) tkArgument(d *declared, bound map[string]string, depth int) (string, bool) {
	if depth > 8 {
		return "", false
	}
	for _, ref := range d.Extends {
		args := make([]string, len(ref.Args))
		for i, a := range ref.Args {
			args[i] = a
			if b, ok := bound[simpleName(a)]; ok && slices.Contains(d.Params, simpleName(a)) {
				args[i] = b
			}
		}
		if strings.HasPrefix(ref.Name, tkPackage) {
			if len(args) > 0 && !slices.Contains(d.Params, simpleName(args[0])) {
				return args[0], true
			}
			continue
		}
		up := l.lookup(ref.Name)
		if up == nil || up.Kind != "interface" {
			continue
		}
		next := map[string]string{}
		for i, p := range up.Params {
			if i < len(args) {
				next[p] = args[i]
			}
		}
		if arg, ok := l.tkArgument(up, next, depth+1); ok {
			return arg, true
		}
	}
	return "", false
}

func simpleName(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }

// Statements renders the writes tk.mybatis generates for each mapper
// interface of the run whose entity is known.
func (l *linker) Statements() []*stmt.Fragment {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.readPending()
	names := make([]string, 0, len(l.types))
	for q, d := range l.types {
		if d.Kind == "interface" {
			names = append(names, q)
		}
	}
	slices.Sort(names)
	var out []*stmt.Fragment
	for _, q := range names {
		if m := l.mapperOf(q); m != nil {
			out = append(out, m.statements()...)
		}
	}
	return out
}

// Resolve completes a call of a generated write on a tk.mybatis mapper:
// the table and columns of its entity, and the version compare the
// library adds when the entity has @Version.
func (l *linker) Resolve(c *stmt.MapperCall) bool {
	if c.Framework != "" {
		return false // another framework's write
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.readPending()
	m := l.mapperOf(c.Mapper)
	if m == nil {
		return false
	}
	c.Framework, c.Table = Name, m.entity.table
	for _, col := range m.entity.columns {
		if col.name != stmt.PropertyColumn(col.property) {
			if c.Columns == nil {
				c.Columns = map[string]string{}
			}
			c.Columns[col.property] = col.name
		}
	}
	c.VersionCAS = m.entity.version != "" && strings.Contains(c.Method, "ByPrimaryKey")
	return true
}
