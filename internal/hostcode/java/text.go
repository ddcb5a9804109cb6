package java

import (
	"github.com/guard-sql/guard/internal/hostcode"
)

// Char and Text are hostcode's: a string value that remembers, byte by
// byte, where it stands in the file.
type (
	Char = hostcode.Char
	Text = hostcode.Text
)

// LooksLikeSQL is hostcode.LooksLikeSQL.
func LooksLikeSQL(s string) bool { return hostcode.LooksLikeSQL(s) }

// looksLikeSQL is LooksLikeSQL of t, reading only its first word.
func looksLikeSQL(t Text) bool {
	i := 0
	for i < len(t) && (t[i].B == ' ' || t[i].B == '\t' || t[i].B == '\r' || t[i].B == '\n' || t[i].B == '\f') {
		i++
	}
	return LooksLikeSQL(t[i:min(len(t), i+16)].String())
}
