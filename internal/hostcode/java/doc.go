// Package java reads Java without compiling it: a lexer and an index of
// blocks, declarations and assignments, over which it finds the SQL of
// JDBC and Spring calls and MyBatis annotations, the calls of MyBatis
// Generator mappers and the services that wrap them, MyBatis-Plus entity
// writes and update wrappers, and the JPA entities, Spring Data
// repositories and entity writes the JPA framework package links.
// Declarations is the view of a file's types that framework packages read.
package java
