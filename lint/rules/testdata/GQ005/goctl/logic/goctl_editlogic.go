package logic

import (
	"context"

	"shop/order/rpc/internal/svc"
	"shop/order/rpc/pb"
)

type EditLogic struct {
	ctx    context.Context
	svcCtx *svc.ServiceContext
}

// Edit is an edit form's partial update: each field the request carries is
// copied into the row read, whose old state the code never looks at. No
// check races with the write: silent.
func (l *EditLogic) Edit(in *pb.CancelReq) error {
	o, err := l.svcCtx.TOrderModel.FindOneByOrderNo(l.ctx, in.OrderNo)
	if err != nil {
		return err
	}
	if in.Status != "" {
		o.Status = in.Status
	}
	return l.svcCtx.TOrderModel.Update(l.ctx, o)
}

// EditOpen copies the same field after checking the old state: check, then
// act.
func (l *EditLogic) EditOpen(in *pb.CancelReq) error {
	o, err := l.svcCtx.TOrderModel.FindOneByOrderNo(l.ctx, in.OrderNo)
	if err != nil {
		return err
	}
	if o.Status == "closed" {
		return nil
	}
	if in.Status != "" {
		o.Status = in.Status
	}
	return l.svcCtx.TOrderModel.Update(l.ctx, o) // want "GQ005 state column t_order.status is set to in.Status"
}
