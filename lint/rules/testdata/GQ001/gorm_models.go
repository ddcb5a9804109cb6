package dao

type gormLog struct {
	ID  int64
	Msg string
}

func (gormLog) TableName() string { return "t_log" }
