package sqlparse

import (
	"strings"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// MaxIdentifier is the longest name, in characters, that MySQL and MariaDB
// accept for a database, table, column, index or constraint. The TiDB
// parser accepts longer ones; the servers refuse the statement (Error 1059
// identifier name is too long; MariaDB says 1103 or 1102 for a table or a
// database name, and a column of that name cannot exist).
const MaxIdentifier = 64

// MayNameLong tells whether the text of a statement may hold a name longer
// than MaxIdentifier, so that a statement whose text cannot is not walked.
// A name of more characters has more bytes as written: unquoted, a run of
// identifier bytes; quoted with ` or ", more bytes between two single quote
// characters of the kind (a doubled one stands for one inside the name); a
// quote left open does not parse.
func MayNameLong(sql string) bool {
	run := 0
	for i := 0; i < len(sql); i++ {
		if NameByte(sql[i]) {
			if run++; run > MaxIdentifier {
				return true
			}
			continue
		}
		run = 0
	}
	for _, q := range []byte{'`', '"'} {
		last := -1
		for i := 0; ; {
			k := strings.IndexByte(sql[i:], q)
			if k < 0 {
				break
			}
			i += k
			if i+1 < len(sql) && sql[i+1] == q {
				i += 2 // a doubled quote: one character of a name
				continue
			}
			if last >= 0 && i-last-1 > MaxIdentifier {
				return true
			}
			last = i
			i++
		}
	}
	return false
}

// NameByte tells whether c may stand in an unquoted name: a letter, a
// digit, _ or $, or any byte of a character beyond ASCII.
func NameByte(c byte) bool { return nameBytes[c] }

// nameBytes is NameByte's answer for every byte.
var nameBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x80 || c == '_' || c == '$' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
	}
	return t
}()

// LongName is a name a statement gives or refers to that is longer than
// MaxIdentifier.
type LongName struct {
	// Kind is database, table, column, index or constraint.
	Kind string
	Name string
	// Length counts characters, as the servers do, not bytes.
	Length int
}

// LongNames returns the names longer than MaxIdentifier that n declares or
// refers to, in the order they stand, each once. An alias is not one of
// them: the servers accept longer aliases.
func LongNames(n Node) []LongName {
	v := &longNames{}
	n.Accept(v)
	if len(v.out) == 0 || len(v.aliases) == 0 {
		return v.out
	}
	// ORDER BY and HAVING may name a select field's alias as a column.
	var out []LongName
	for _, ln := range v.out {
		if ln.Kind != "column" || !v.aliases[strings.ToLower(ln.Name)] {
			out = append(out, ln)
		}
	}
	return out
}

type longNames struct {
	out     []LongName
	seen    map[string]bool
	aliases map[string]bool
}

func (v *longNames) add(kind, name string) {
	if len(name) <= MaxIdentifier {
		return // fewer bytes than the limit, so fewer characters
	}
	n := utf8.RuneCountInString(name)
	if n <= MaxIdentifier {
		return
	}
	key := kind + "\x00" + strings.ToLower(name)
	if v.seen[key] {
		return
	}
	if v.seen == nil {
		v.seen = map[string]bool{}
	}
	v.seen[key] = true
	v.out = append(v.out, LongName{Kind: kind, Name: name, Length: n})
}

func (v *longNames) Enter(n Node) (Node, bool) {
	switch n := n.(type) {
	case *ast.TableName:
		v.add("database", n.Schema.O)
		v.add("table", n.Name.O)
	case *ast.ColumnName:
		// Its table qualifier may be an alias; a table it names is a
		// TableName of the statement.
		v.add("column", n.Name.O)
	case *ast.SelectField:
		if len(n.AsName.O) > MaxIdentifier {
			if v.aliases == nil {
				v.aliases = map[string]bool{}
			}
			v.aliases[n.AsName.L] = true
		}
	case *ast.Constraint:
		if n.Tp == ast.ConstraintCheck || n.Tp == ast.ConstraintForeignKey {
			v.add("constraint", n.Name)
		} else if n.Tp != ast.ConstraintPrimaryKey {
			v.add("index", n.Name)
		}
	case *ast.ColumnOption:
		v.add("constraint", n.ConstraintName)
	case *ast.CreateIndexStmt:
		v.add("index", n.IndexName)
	case *ast.AlterTableSpec:
		// Not among the children the parser visits.
		if n.NewColumnName != nil {
			v.add("column", n.NewColumnName.Name.O)
		}
		v.add("index", n.ToKey.O)
	case *ast.CreateDatabaseStmt:
		v.add("database", n.Name.O)
	}
	return n, false
}

func (v *longNames) Leave(n Node) (Node, bool) { return n, true }
