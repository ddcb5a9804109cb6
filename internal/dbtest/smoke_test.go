package dbtest

import "testing"

func TestMain(m *testing.M) { Main(m) }

func TestSmoke(t *testing.T) {
	db := MySQL(t)
	t.Logf("startup %v version %s dsn %s", db.Server().StartupTime(), db.Server().Version(), Redact(db.DSN))
	db.Exec(t, "CREATE TABLE x (id INT PRIMARY KEY)")
	r := Redis(t)
	t.Logf("redis %s", r.Addr())
	r.Flush()
}
