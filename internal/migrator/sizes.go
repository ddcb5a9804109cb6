package migrator

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
)

// tableSize is a table's rows and bytes.
type tableSize struct {
	rows  int64
	exact bool
	bytes int64
	stale bool
}

// tableSizes reads the rows and bytes of the named tables (lower case) of
// database from information_schema, and counts the rows exactly where the
// estimate is below ExactCountBelow. A table not there is left out.
func tableSizes(ctx context.Context, db *sql.DB, database string, names map[string]bool) (map[string]tableSize, error) {
	out := map[string]tableSize{}
	if len(names) == 0 {
		return out, nil
	}
	rows, err := db.QueryContext(ctx, "SELECT TABLE_NAME, COALESCE(TABLE_ROWS, 0), COALESCE(DATA_LENGTH, 0) + COALESCE(INDEX_LENGTH, 0) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'", database)
	if err != nil {
		return nil, fmt.Errorf("read table sizes: %w", err)
	}
	found := map[string]string{}
	for rows.Next() {
		var name string
		var sz tableSize
		if err := rows.Scan(&name, &sz.rows, &sz.bytes); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read table sizes: %w", err)
		}
		if key := strings.ToLower(name); names[key] {
			out[key], found[key] = sz, name
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read table sizes: %w", err)
	}
	for key, name := range found {
		sz := out[key]
		if sz.rows >= ExactCountBelow {
			continue
		}
		estimate := sz.rows
		if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+quote(name)).Scan(&sz.rows); err != nil {
			return nil, fmt.Errorf("count the rows of %s: %w", name, err)
		}
		sz.exact = true
		sz.stale = sz.rows > 2*estimate+1000
		out[key] = sz
	}
	return out, nil
}

// impactTables are the tables the statements touch, lower case.
func impactTables(srv schema.Server, database string, stmts []Stmt) map[string]bool {
	out := map[string]bool{}
	for i := range stmts {
		if im := statementImpact(srv, database, &stmts[i], nil); im.Table != "" {
			out[strings.ToLower(im.Table)] = true
		}
	}
	return out
}

// humanBytes prints a size: "512 B", "23.4 MiB".
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}
