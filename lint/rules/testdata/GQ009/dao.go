package dao

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// A table name pasted in with fmt.Sprintf: the SQL exists only at run time.
func deductFrom(ctx context.Context, db *sql.DB, table string, id, n int64) error {
	q := fmt.Sprintf("UPDATE %s SET inventory = inventory - ? WHERE id = ? AND inventory >= ?", table) // want "^GQ009 not checked: SQL built at run time with fmt.Sprintf$"
	res, err := db.ExecContext(ctx, q, n, id, n)
	if err != nil {
		return err
	}
	if affected, _ := res.RowsAffected(); affected != 1 {
		return fmt.Errorf("inventory %d: insufficient", id)
	}
	return nil
}

// A WHERE clause joined at run time.
func listWhere(ctx context.Context, db *sql.DB, conds []string) (*sql.Rows, error) {
	return db.QueryContext(ctx, "SELECT id, inventory FROM t_inventory WHERE "+strings.Join(conds, " AND ")) // want "GQ009 not checked: SQL .*strings.Join"
}

// A constant statement is checked, not reported.
func get(ctx context.Context, db *sql.DB, id int64) (int64, error) {
	var v int64
	err := db.QueryRowContext(ctx, "SELECT inventory FROM t_inventory WHERE id = ?", id).Scan(&v)
	return v, err
}

// A constant statement that does not parse: reported at the literal, naming the culprit inside it.
func broken(ctx context.Context, db *sql.DB, id int64) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = inventory - 1 WHERE id = ? AN inventory > 0", id) // want "^GQ009 not checked: SQL does not parse at 37:95: syntax error near \"AN inventory > 0\""
	return err
}
