package drill

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/guard-sql/guard/internal/dbtest"
)

func TestMain(m *testing.M) {
	// go-redis logs every failed dial; the fault tests cause many.
	redis.SetLogger(quietLogger{})
	dbtest.Main(m)
}

type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

// poolSize bounds the connections of one drill: 300 workers must not
// exhaust the server's max_connections, shared by the tests running at once.
const poolSize = 24

// newDB returns a fresh database holding stmts, and a pool on it sized as
// the command line sizes its own.
func newDB(t *testing.T, stmts ...string) (*dbtest.DB, *sql.DB) {
	t.Helper()
	db := dbtest.MySQL(t)
	db.Exec(t, stmts...)
	pool, err := sql.Open("mysql", db.DSN+"&interpolateParams=true")
	if err != nil {
		t.Fatal(err)
	}
	pool.SetMaxOpenConns(poolSize)
	pool.SetMaxIdleConns(poolSize)
	t.Cleanup(func() { pool.Close() })
	return db, pool
}

// quickClient is a client of one Redis server that gives up fast when the
// server is down, as the fault tests need.
func quickClient(t *testing.T, addr string) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{
		Addr: addr, DialTimeout: 200 * time.Millisecond,
		ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond,
		MaxRetries: 1, PoolSize: 64, DialerRetries: 1, DialerRetryTimeout: 10 * time.Millisecond,
	})
	t.Cleanup(func() { c.Close() })
	return c
}

// stockTable is a table as an application would have it: a counter with a
// CHECK, a version, a unique business key and a NOT NULL column without a
// default.
const stockTable = `CREATE TABLE t_stock (
	id BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY,
	sku VARCHAR(32) NOT NULL,
	stock INT NOT NULL DEFAULT 0,
	price DECIMAL(10,2) NOT NULL,
	version BIGINT UNSIGNED NOT NULL DEFAULT 0,
	CONSTRAINT stock_non_negative CHECK (stock >= 0),
	UNIQUE KEY uk_sku (sku)
) ENGINE=InnoDB`
