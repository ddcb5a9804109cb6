package audit

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/guard-sql/guard/internal/dbtest"
	"github.com/guard-sql/guard/internal/target"
	"github.com/guard-sql/guard/lint/rules"
)

// benchTables is the size of the schema of BenchmarkAuditVersusDump.
const benchTables = 2000

// createBenchSchema creates n tables of a realistic shape (a counter with
// its CHECK, a business key, a state, a version, a secondary index), a
// hundred CREATE TABLE statements per round trip.
func createBenchSchema(b *testing.B, db *dbtest.DB, n int) {
	b.Helper()
	const batch = 100
	for start := 0; start < n; start += batch {
		var sb strings.Builder
		for i := start; i < min(start+batch, n); i++ {
			fmt.Fprintf(&sb, `CREATE TABLE t_bench_%04d (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  order_no VARCHAR(32) NOT NULL,
  stock INT NOT NULL DEFAULT 0,
  status VARCHAR(16) NOT NULL DEFAULT 'new',
  note VARCHAR(255) NULL,
  created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  version BIGINT UNSIGNED NOT NULL DEFAULT 0,
  UNIQUE KEY uk_order_no (order_no),
  KEY ix_status (status, created_at),
  CONSTRAINT chk_%04d_stock CHECK (stock >= 0)
) ENGINE=InnoDB;
`, i, i)
		}
		db.Exec(b, sb.String())
	}
}

// BenchmarkAuditVersusDump times guard's audit of a 2,000-table schema
// without data scans against mariadb-dump --no-data of the same schema, in
// the same run, and reports both with guard's query count:
//
//	go test -run '^$' -bench AuditVersusDump -benchtime 5x ./internal/audit/
func BenchmarkAuditVersusDump(b *testing.B) {
	dump, err := exec.LookPath("mariadb-dump")
	if err != nil {
		b.Fatalf("mariadb-dump not found: install it with `apt-get install -y mariadb-client`")
	}
	db := dbtest.MySQL(b)
	began := time.Now()
	createBenchSchema(b, db, benchTables)
	b.Logf("created %d tables in %s on %s", benchTables, time.Since(began).Round(time.Millisecond), db.Server().Version())
	tg, err := target.Parse(db.DSN)
	if err != nil {
		b.Fatal(dbtest.Redact(err.Error()))
	}
	host, port, err := net.SplitHostPort(db.Addr)
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{Rules: rules.All(), NoData: true}
	var auditTime, dumpTime time.Duration
	queries, findings := 0, 0
	for b.Loop() {
		t0 := time.Now()
		res := AuditTarget(context.Background(), tg, opts)
		auditTime += time.Since(t0)
		if res.Err != nil {
			b.Fatal(dbtest.Redact(res.Err.Error()))
		}
		if res.Tables != benchTables {
			b.Fatalf("audit read %d tables, want %d", res.Tables, benchTables)
		}
		queries, findings = res.Queries, len(res.Findings)

		cmd := exec.Command(dump, "--no-data", "--skip-lock-tables", "--skip-triggers",
			"--protocol=TCP", "-h", host, "-P", port, "-u", db.User, db.Name)
		// The password goes by environment, not by the command line.
		cmd.Env = append(os.Environ(), "MYSQL_PWD="+db.Password)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		t1 := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("mariadb-dump: %v: %s", err, dbtest.Redact(stderr.String()))
		}
		dumpTime += time.Since(t1)
	}
	n := float64(b.N)
	b.ReportMetric(float64(auditTime.Milliseconds())/n, "audit-ms/op")
	b.ReportMetric(float64(dumpTime.Milliseconds())/n, "dump-ms/op")
	b.ReportMetric(float64(auditTime)/float64(dumpTime), "audit/dump")
	b.ReportMetric(float64(queries), "queries")
	b.Logf("%d tables: audit --no-data %s (%d queries, %d findings), mariadb-dump --no-data %s",
		benchTables, (auditTime / time.Duration(b.N)).Round(time.Millisecond), queries, findings,
		(dumpTime / time.Duration(b.N)).Round(time.Millisecond))
}
