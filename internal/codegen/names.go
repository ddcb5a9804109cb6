package codegen

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/guard-sql/guard/internal/schema"
)

// initialisms are the words Go spells in one case (ID, not Id), after the
// list of golint and staticcheck.
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true,
	"EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true,
	"IP": true, "JSON": true, "LHS": true, "QPS": true, "RAM": true, "RHS": true,
	"RPC": true, "SKU": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true,
	"TCP": true, "TLS": true, "TTL": true, "UDP": true, "UI": true, "UID": true,
	"UUID": true, "URI": true, "URL": true, "UTF8": true, "VM": true, "XML": true,
	"XMPP": true, "XSRF": true, "XSS": true,
}

// GoName turns an SQL identifier into an exported Go identifier: words split
// on anything but letters and digits, each capitalised, initialisms in
// upper case (user_id -> UserID, api_url -> APIURL). A name starting with a
// digit gets an X in front. It returns "" when name holds no letter or digit.
func GoName(name string) string {
	words := strings.FieldsFunc(name, func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)))
	})
	var b strings.Builder
	for _, w := range words {
		if up := strings.ToUpper(w); initialisms[up] {
			b.WriteString(up)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]))
		b.WriteString(w[1:])
	}
	out := b.String()
	if out != "" && unicode.IsDigit(rune(out[0])) {
		out = "X" + out
	}
	return out
}

// TypeName is the Go type of a table: its name without the strip prefix
// (case-insensitive), through GoName (t_inventory -> Inventory).
func TypeName(table, stripPrefix string) string {
	return GoName(stripped(table, stripPrefix))
}

// stripped is table without the strip prefix (case-insensitive), when it
// starts with it and is longer.
func stripped(table, stripPrefix string) string {
	if stripPrefix != "" && len(table) > len(stripPrefix) && strings.EqualFold(table[:len(stripPrefix)], stripPrefix) {
		return table[len(stripPrefix):]
	}
	return table
}

// nonASCII returns the runs of characters outside ASCII in name, quoted and
// joined ("库存", "数量"); "" when name is ASCII. GoName drops them, so a
// name that holds any has no Go name of its own: 库存 has none at all, and
// t_库存_item and t_仓库_item would both become Item.
func nonASCII(name string) string {
	var runs []string
	start := -1
	for i, r := range name + "." {
		switch {
		case r >= utf8.RuneSelf && start < 0:
			start = i
		case r < utf8.RuneSelf && start >= 0:
			runs = append(runs, strconv.Quote(name[start:i]))
			start = -1
		}
	}
	return strings.Join(runs, ", ")
}

// checkASCII refuses a table whose name after the strip prefix, or a
// column whose name, holds characters outside ASCII: the generated Go
// names are spelled in ASCII letters and digits, and guard gen has no
// setting that maps a table or a column to a Go name of the user's choice.
func checkASCII(t *schema.Table, stripPrefix string) error {
	if run := nonASCII(stripped(t.Name, stripPrefix)); run != "" {
		return fmt.Errorf("table %s: its name holds characters outside ASCII (%s), and guard spells the Go type it "+
			"generates in ASCII letters and digits: set [gen] strip_prefix in policies.toml to remove them when they "+
			"lead the name (it is %q), or rename the table; no [gen] setting maps a table to a Go name", t.Name, run, stripPrefix)
	}
	for _, c := range t.Columns {
		if run := nonASCII(c.Name); run != "" {
			return fmt.Errorf("table %s: column %s holds characters outside ASCII (%s), and guard spells the Go field "+
				"it generates in ASCII letters and digits: rename the column; no [gen] setting maps a column to a Go name",
				t.Name, c.Name, run)
		}
	}
	return nil
}

// checkLengths refuses a table that names a table, column, index or
// constraint longer than maxIdent characters: MySQL and MariaDB refuse
// such a name (Error 1059, identifier name is too long), so the table a
// migration declares with it never exists, though the parser accepts it.
func checkLengths(t *schema.Table) error {
	long := func(what, name string) error {
		if n := utf8.RuneCountInString(name); n > maxIdent {
			return fmt.Errorf("table %s: %s name %s is %d characters long, over the limit of %d that MySQL and MariaDB "+
				"accept (the server refuses it with Error 1059): shorten it", t.Name, what, name, n, maxIdent)
		}
		return nil
	}
	if err := long("table", t.Name); err != nil {
		return err
	}
	for _, c := range t.Columns {
		if err := long("column", c.Name); err != nil {
			return err
		}
	}
	for _, ix := range t.Indexes {
		if err := long("index", ix.Name); err != nil {
			return err
		}
	}
	for _, ck := range t.Checks {
		if err := long("constraint", ck.Name); err != nil {
			return err
		}
	}
	return nil
}

// FileBase is the base of a table's generated file: its type name in snake
// case (Inventory -> inventory, UserAPIKey -> user_api_key).
func FileBase(typeName string) string {
	var b strings.Builder
	rs := []rune(typeName)
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 {
			prevLower := unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if prevLower || (nextLower && unicode.IsUpper(rs[i-1])) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// reservedTypes are the names the shared files of a generated package
// declare: a table's type must not take them.
var reservedTypes = map[string]bool{
	"Option": true, "Metrics": true, "NopMetrics": true, "LockAcquireResult": true,
	"LockReleaseResult": true, "CASResult": true,
}

// checkPackage validates a Go package name.
func checkPackage(name string) error {
	if name == "" {
		return fmt.Errorf("empty package name")
	}
	if !token.IsIdentifier(name) || name == "_" {
		return fmt.Errorf("package name %q is not a Go identifier", name)
	}
	if name == "main" {
		return fmt.Errorf("package name %q: generated DAOs are a library package", name)
	}
	return nil
}

// checkName refuses names that cannot stand in a comment or a message of
// the generated code: invalid UTF-8 and control characters (newlines).
func checkName(what, name string) error {
	if !utf8.ValidString(name) || strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return fmt.Errorf("%s name %q holds control characters or invalid UTF-8", what, name)
	}
	return nil
}

// structTag returns the struct tag db:"name" as a Go literal: a raw string,
// or a quoted one when the name holds a backtick.
func structTag(column string) string {
	tag := "db:" + strconv.Quote(column)
	if strings.Contains(tag, "`") {
		return strconv.Quote(tag)
	}
	return "`" + tag + "`"
}

// quoteIdent quotes an SQL identifier with backticks, doubling any inside.
func quoteIdent(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}
