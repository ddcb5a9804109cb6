package dao

import (
	"context"
	"database/sql"
)

func SetNote(ctx context.Context, db *sql.DB, id int64, note string) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET note = ? WHERE id = ?", note, id) // want "GQ004"
	return err
}

func SetNoteBumped(ctx context.Context, db *sql.DB, id int64, note string) error {
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET note = ?, version = version + 1 WHERE id = ?", note, id)
	return err
}
