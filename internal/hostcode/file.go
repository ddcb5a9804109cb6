// Package source finds SQL in the files of a project: .sql files, Go, Java and
// MyBatis XML mappers. Every fragment it returns knows where its text stands in
// the original file.
package source

import "strings"

// File is what an extractor found in one file.
type File struct {
	Path         string
	Lang         Lang
	Fragments    []*Fragment
	Suppressions []Suppression
	// ClauseSets are the MyBatis Generator Example clause setters of a Java
	// file (see ClauseSet).
	ClauseSets []ClauseSet
	// MapperCalls are the MyBatis Generator write calls of a Java file (see
	// MapperCall).
	MapperCalls []MapperCall
	// ServiceCalls are the calls of a Java file that may reach a generated
	// write through one service method (see MapperCall.Via), and Types the
	// classes that declare such methods or implement interfaces; lint
	// joins the two across the files of a run.
	ServiceCalls []MapperCall
	Types        []JavaType
	// NeedsPackage reports, for a Go file read alone, that a goctl-shaped
	// statement names what another file of its package declares (a model's
	// column list, the table its embedded generated model holds):
	// ExtractGoPackage with those files may compute it.
	NeedsPackage bool
	// GoctlFields maps the struct fields of a Go file whose type is a goctl
	// model named otherwise (`OrderModel model.OrdersModel`) to that type.
	GoctlFields map[string]string
	// JPA holds the entities and Spring Data repositories a Java file
	// declares; nil when it declares none.
	JPA *JPAFile
}

// ParseSuppression reads "guard:ignore CODE reason…" out of a comment's text
// (without its comment markers). ok is false when the comment is not a
// suppression. A suppression with an empty Reason is invalid and is reported.
func ParseSuppression(comment string) (code, reason string, ok bool) {
	s := strings.TrimSpace(comment)
	const tag = "guard:ignore"
	if !strings.HasPrefix(s, tag) {
		return "", "", false
	}
	rest := strings.TrimSpace(s[len(tag):])
	code, reason, _ = strings.Cut(rest, " ")
	return strings.ToUpper(strings.TrimSpace(code)), strings.TrimSpace(reason), true
}
