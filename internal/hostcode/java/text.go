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
