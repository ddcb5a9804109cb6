package store

import "database/sql"

type Users struct{ db *sql.DB }

func (u *Users) Add(name, nick string, age int) error {
	_, err := u.db.Exec("INSERT INTO t_user (name, nick, age) VALUES (?, ?, ?)", name, nick, age)
	return err
}

func (u *Users) Event(id int64, kind string) error {
	_, err := u.db.Exec("UPDATE t_event SET kind = ? WHERE id = ?", kind, id)
	return err
}

func (u *Users) Score(id, n int64) error {
	_, err := u.db.Exec("UPDATE t_user SET score = score + ? WHERE id = ?", n, id)
	return err
}
