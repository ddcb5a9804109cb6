package logic

import (
	"context"

	"shop/order/model"
	"shop/order/rpc/internal/svc"
	"shop/order/rpc/pb"
)

type PayLogic struct {
	ctx    context.Context
	svcCtx *svc.ServiceContext
}

// Pay checks the state it read, then writes the new one by the generated
// Update, whose WHERE names the key only: a concurrent cancel is undone.
func (l *PayLogic) Pay(in *pb.PayReq) error {
	o, err := l.svcCtx.TOrderModel.FindOneByOrderNo(l.ctx, in.OrderNo)
	if err != nil {
		return err
	}
	if o.Status != "pending" {
		return model.ErrStateChanged
	}
	o.Status = "paid"
	return l.svcCtx.TOrderModel.Update(l.ctx, o) // want "GQ005 state column t_order.status is set to \"paid\" and written by TOrderModel.Update → defaultTOrderModel.Update \\(.*goctl_tordermodel_gen.go:50\\) after o read by TOrderModel.FindOneByOrderNo at line 19"
}

// Cancel sets the state the request names after the read.
func (l *PayLogic) Cancel(in *pb.CancelReq) error {
	o, err := l.svcCtx.TOrderModel.FindOneByOrderNo(l.ctx, in.OrderNo)
	if err != nil {
		return err
	}
	o.Status = in.Status
	return l.svcCtx.TOrderModel.Update(l.ctx, o) // want "GQ005 state column t_order.status is set to in.Status"
}

// PayChecked is the safe twin: the method's statement names the state left.
func (l *PayLogic) PayChecked(in *pb.PayReq) error {
	o, err := l.svcCtx.TOrderModel.FindOneByOrderNo(l.ctx, in.OrderNo)
	if err != nil {
		return err
	}
	o.Status = "paid"
	return l.svcCtx.TOrderModel.MarkPaid(l.ctx, o)
}

// Reprice keeps the state as read.
func (l *PayLogic) Reprice(in *pb.RepriceReq) error {
	o, err := l.svcCtx.TOrderModel.FindOneByOrderNo(l.ctx, in.OrderNo)
	if err != nil {
		return err
	}
	o.Amount = in.Amount
	return l.svcCtx.TOrderModel.Update(l.ctx, o)
}

// Ship reaches the model through a field the service context declares
// with the model's type under another name.
func (l *PayLogic) Ship(in *pb.ShipReq) error {
	o, err := l.svcCtx.OrderModel.FindOneByOrderNo(l.ctx, in.OrderNo)
	if err != nil {
		return err
	}
	o.Status = "shipped"
	return l.svcCtx.OrderModel.Update(l.ctx, o) // want "GQ005 state column t_order.status is set to \"shipped\" and written by OrderModel.Update → defaultTOrderModel.Update"
}
