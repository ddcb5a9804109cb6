package dao

import (
	"context"
	"database/sql"
	"errors"
)

// The loop lacks its opening brace: the file does not compile, and
// go/parser still reads the code around the error, whose SQL is checked.
func purge(ctx context.Context, db *sql.DB, ids []int64) error {
	for _, id := range ids // want "^GQ009 not checked: go: cannot parse file: expected '{', found newline$"
		if _, err := db.ExecContext(ctx, "DELETE FROM t_inventory WHERE id = ? AN inventory = 0", id); err != nil { // want "^GQ009 not checked: SQL does not parse at 13:74: syntax error near \"AN inventory = 0\""
			return errors.New("delete inventory failed")
		}
	}
	return nil
}

func restock(ctx context.Context, db *sql.DB, id int64, n int) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = inventory + ? WHERE id = ? AN version = 1", n, id) // want "^GQ009 not checked: SQL does not parse at 21:95: syntax error near \"AN version = 1\""
	return err
}
