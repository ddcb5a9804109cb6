package types

// DeductReq asks for Num units of product Id.
type DeductReq struct {
	Id  int64 `json:"id"`
	Num int64 `json:"num"`
}
