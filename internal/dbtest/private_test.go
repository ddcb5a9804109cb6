package dbtest

import (
	"testing"
)

func TestPrivateMySQLKill(t *testing.T) {
	db := PrivateMySQL(t)
	shared := MySQL(t)
	if db.Server() == shared.Server() || db.Addr == shared.Addr {
		t.Fatalf("the private server is the shared one (%s)", db.Addr)
	}
	db.Exec(t, "CREATE TABLE t (id INT PRIMARY KEY)")
	db.Server().Kill()
	if err := db.SQL.Ping(); err == nil {
		t.Error("the killed server still answers")
	}
	// The shared server is untouched.
	shared.Exec(t, "CREATE TABLE t (id INT PRIMARY KEY)")

	defer func() {
		if recover() == nil {
			t.Error("Kill on the shared server did not panic")
		}
	}()
	shared.Server().Kill()
}
