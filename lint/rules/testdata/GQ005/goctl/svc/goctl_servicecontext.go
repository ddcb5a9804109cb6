package svc

import (
	"github.com/zeromicro/go-zero/core/stores/sqlx"

	"shop/order/model"
)

// ServiceContext names the order model's field otherwise than its type.
type ServiceContext struct {
	TOrderModel model.TOrderModel
	OrderModel  model.TOrderModel
}

func NewServiceContext(conn sqlx.SqlConn) *ServiceContext {
	m := model.NewTOrderModel(conn)
	return &ServiceContext{TOrderModel: m, OrderModel: m}
}
