package dao

import (
	"context"
	"database/sql"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"
)

// The unguarded decrement people put behind a Redis lock: the finding
// names the lock, which is what its author believed made it safe.
func deductUnderSetNX(ctx context.Context, db *sql.DB, rdb *redis.Client, id int64, n int) error {
	ok, err := rdb.SetNX(ctx, "lock:inv", 1, 10*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "lock:inv")
	_, err = db.ExecContext(ctx, "UPDATE t_inventory SET inventory = inventory - ? WHERE id = ?", n, id) // want "GQ002 .*; the Redis SETNX \\(SetNX\\) taken at line 15 does not make it safe: the lock can expire before the write"
	return err
}

func deductUnderRedsync(ctx context.Context, db *sql.DB, rs *redsync.Redsync, id int64, n int) error {
	mutex := rs.NewMutex("lock:inv")
	if err := mutex.LockContext(ctx); err != nil {
		return err
	}
	defer mutex.UnlockContext(ctx)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE t_inventory SET inventory = inventory - ? WHERE id = ?", n, id); err != nil { // want "GQ002 .*; neither the redsync mutex \\(LockContext\\) taken at line 26 nor the transaction it runs in \\(BeginTx\\(\\)\\) makes it safe"
		return err
	}
	return tx.Commit()
}

// Twin: the lock is released before the write, which then stands outside
// it; the finding says nothing of a lock.
func deductAfterRelease(ctx context.Context, db *sql.DB, rdb *redis.Client, id int64, n int) error {
	if ok, _ := rdb.SetNX(ctx, "lock:inv", 1, 10*time.Second).Result(); !ok {
		return nil
	}
	rdb.Del(ctx, "lock:inv")
	_, err := db.ExecContext(ctx, "UPDATE t_inventory SET inventory = inventory - ? WHERE id = ?", n, id) // want "GQ002 decrement of counter t_inventory.inventory[^;]*$"
	return err
}
