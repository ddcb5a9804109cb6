package codegen

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
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
	name := table
	if stripPrefix != "" && len(name) > len(stripPrefix) && strings.EqualFold(name[:len(stripPrefix)], stripPrefix) {
		name = name[len(stripPrefix):]
	}
	return GoName(name)
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
