// Package golang reads Go: the SQL strings database/sql and sqlx run,
// followed through constants, concatenation and builders, with how the
// result is used; GORM chains and model writes rendered to the UPDATE they
// send; goctl models and go-zero RPC calls. Identifiers resolve through
// go/types, over the file or the package it is read with.
package golang
