package dbtest

import (
	"strings"
	"testing"
)

// Account is a password account holding only the privileges a test granted
// it, for tests of what guard does with a limited view of a database.
type Account struct {
	User string
	// Password is random; never log it: pass messages through Redact.
	Password string
	// DSN connects the account to the test database over TCP, with the
	// parameters of DB.DSN.
	DSN string
}

// Account creates an account on db's server that holds nothing but grants,
// each what GRANT … TO takes before TO, "{db}" standing for the test
// database: "SELECT ON {db}.t_stock", "SELECT (qty) ON {db}.t", or a role.
// The account is dropped when t ends.
func (db *DB) Account(t testing.TB, grants ...string) *Account {
	t.Helper()
	s := db.server
	a := &Account{User: "guard_acct_" + randomHex(6), Password: newPassword()}
	var accounts []string
	for _, host := range passwordUserHosts {
		accounts = append(accounts, quoteString(a.User)+"@"+quoteString(host))
	}
	t.Cleanup(func() {
		if err := dropPasswordUser(s.root, a.User); err != nil {
			t.Error(Redact(err.Error()))
		}
	})
	for _, account := range accounts {
		if _, err := s.root.Exec("CREATE USER " + account + " IDENTIFIED BY " + quoteString(a.Password)); err != nil {
			fatalf(t, "create user %s: %v", account, err)
		}
	}
	for _, g := range grants {
		stmt := "GRANT " + strings.ReplaceAll(g, "{db}", quoteIdent(db.Name)) + " TO " + strings.Join(accounts, ", ")
		if _, err := s.root.Exec(stmt); err != nil {
			fatalf(t, "%s: %v", stmt, err)
		}
	}
	cfg := s.userCfg.Clone()
	cfg.User, cfg.Passwd, cfg.DBName = a.User, a.Password, db.Name
	a.DSN = cfg.FormatDSN()
	return a
}
