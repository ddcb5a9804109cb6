// Package jpa links what the Java reader finds of JPA and Spring Data
// across the files of a run: entity mappings under the naming strategy
// (inherited fields, join columns), repositories, saves and dirty-checked
// writes resolved to their table or dropped, and JPQL @Query statements
// rendered to the SQL Hibernate sends.
package jpa
