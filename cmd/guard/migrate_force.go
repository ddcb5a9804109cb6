package main

import (
	"strings"
	"time"

	"github.com/guard-sql/guard/internal/migrator"
)

// passwordPlaceholder stands for the password in a command guard prints
// for the user to run: the password itself is never printed.
const passwordPlaceholder = "PASSWORD"

// forceCommand is the whole command that clears the dirty version of the
// session's database, to run once it is repaired: the same directory, and
// the same database (GUARD_DSN still set, or --dsn rebuilt from the parsed
// DSN with PASSWORD in place of the password). The flags come before the
// version: after "-- -1" nothing is read as a flag.
func (s *session) forceCommand(v int) string {
	parts := []string{"guard migrate force"}
	if !s.args.fromEnv {
		parts = append(parts, "--dsn "+shellQuote(s.dsnWithoutPassword()))
	}
	parts = append(parts, "--dir "+shellQuote(s.args.dir))
	if v < 0 {
		parts = append(parts, "--", "-1")
	} else {
		parts = append(parts, strings.TrimPrefix(migrator.ForceCommand(v), "guard migrate force "))
	}
	return strings.Join(parts, " ")
}

// forceNote says what PASSWORD stands for in forceCommand, when it is there.
func (s *session) forceNote() string {
	if s.args.fromEnv || s.target.Config().Passwd == "" {
		return ""
	}
	return "   (" + passwordPlaceholder + ": the password of this run's --dsn)"
}

// dsnWithoutPassword writes the session's DSN in go-sql-driver form from
// its parsed fields, the password replaced by PASSWORD.
func (s *session) dsnWithoutPassword() string {
	cfg := s.target.Config()
	var b strings.Builder
	b.WriteString(cfg.User)
	if cfg.Passwd != "" {
		b.WriteString(":" + passwordPlaceholder)
	}
	if b.Len() > 0 {
		b.WriteString("@")
	}
	b.WriteString(cfg.Net + "(" + cfg.Addr + ")/" + cfg.DBName)
	if cfg.TLSConfig != "" && cfg.TLSConfig != "false" {
		b.WriteString("?tls=" + cfg.TLSConfig)
	}
	return b.String()
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain
// path characters.
func shellQuote(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./-+,=", r)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ddlLockOption maps --ddl-lock-timeout to the migrator's option: 0 is the
// server's own lock_wait_timeout.
func ddlLockOption(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}
