package svc

import (
	"github.com/zeromicro/go-zero/core/stores/sqlx"

	"shop/gozero/internal/model"
)

// ServiceContext holds what the stock service's logic uses.
type ServiceContext struct {
	TProductModel model.TProductModel
}

// NewServiceContext opens the model over the shop database.
func NewServiceContext(dataSource string) *ServiceContext {
	return &ServiceContext{TProductModel: model.NewTProductModel(sqlx.NewMysql(dataSource))}
}
