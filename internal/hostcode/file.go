// Package hostcode holds what every reader of host code produces: the File
// an extractor found SQL in, its guard:ignore suppressions, and what the
// readers share (text with file positions, the scopes a statement's
// Context is read from, the text helpers). The readers are its
// subpackages, one per host language: sqlfile (.sql scripts), mybatisxml
// (MyBatis mapper XML), golang (Go: database/sql, sqlx, GORM, goctl) and
// java (JDBC, generated mappers, MyBatis-Plus writes, and the views the
// packages of internal/frameworks read Java through).
// Every fragment they return knows where its text stands in the original
// file.
package hostcode

import (
	"strings"

	"github.com/guard-sql/guard/internal/stmt"
)

// File is what an extractor found in one file.
type File struct {
	Path         string
	Lang         stmt.Lang
	Fragments    []*stmt.Fragment
	Suppressions []stmt.Suppression
	// MapperCalls are the entity writes of the file's host code: calls of
	// generated mapper methods and of ORM writes (see stmt.MapperCall).
	MapperCalls []stmt.MapperCall
	// NeedsPackage reports, for a Go file read alone, that a goctl-shaped
	// statement names what another file of its package declares (a model's
	// column list, the table its embedded generated model holds):
	// extracting it with those files may compute it.
	NeedsPackage bool
	// UsesModels reports, for a Go file, that the extraction asked the model
	// types it was given about a type: a GORM write, whose table and
	// columns they give.
	UsesModels bool
	// GoctlFields maps the struct fields of a Go file whose type is a goctl
	// model named otherwise (`OrderModel model.OrdersModel`) to that type.
	GoctlFields map[string]string
	// NegatedArgs are the calls of the file that pass a negated amount.
	NegatedArgs []stmt.NegatedArg
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
