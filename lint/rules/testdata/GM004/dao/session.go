package dao

import "database/sql"

type Sessions struct{ db *sql.DB }

func (s *Sessions) Token(id int64) (string, error) {
	var tok string
	err := s.db.QueryRow("SELECT token FROM t_session WHERE id = ?", id).Scan(&tok)
	return tok, err
}

func (s *Sessions) Drop(id int64) error {
	_, err := s.db.Exec("DELETE FROM t_session WHERE id = ?", id)
	return err
}
