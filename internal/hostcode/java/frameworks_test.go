package java_test

// The Java reader's tests read mappers whose statement annotations the
// MyBatis framework package reads, and repositories whose @Query the JPA
// one reads: importing them here registers them for every test of the
// package, as the lint driver does for a run.
import (
	_ "github.com/guard-sql/guard/internal/frameworks/jpa"
	_ "github.com/guard-sql/guard/internal/frameworks/mybatis"
	_ "github.com/guard-sql/guard/internal/frameworks/redislock"
)
