package corpus

func broken( {
	db.Exec("UPDATE t_wallet SET balance = 0")
}
