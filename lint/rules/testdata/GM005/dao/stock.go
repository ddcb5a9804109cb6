package dao

import "database/sql"

func Deduct(db *sql.DB, id, n int64) (int64, error) {
	res, err := db.Exec("UPDATE t_stock SET stock = stock - ?, version = version + 1 WHERE id = ? AND stock >= ?", n, id, n)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func Pay(db *sql.DB, id, n int64) (int64, error) {
	res, err := db.Exec("UPDATE t_wallet SET balance = balance - ?, points = points - ?, version = version + 1 WHERE id = ? AND balance >= ? AND points >= ?", n, n, id, n, n)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func Set(db *sql.DB, id, stock, version int64) (int64, error) {
	res, err := db.Exec("UPDATE t_stock SET stock = ?, version = version + 1 WHERE id = ? AND version = ?", stock, id, version)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
