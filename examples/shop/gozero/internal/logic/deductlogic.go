package logic

import (
	"context"

	"shop/gozero/internal/model"
	"shop/gozero/internal/svc"
	"shop/gozero/internal/types"
)

// DeductLogic takes stock for an order, under the Redis lock the handler holds.
type DeductLogic struct {
	ctx    context.Context
	svcCtx *svc.ServiceContext
}

// NewDeductLogic returns the logic of one request.
func NewDeductLogic(ctx context.Context, svcCtx *svc.ServiceContext) *DeductLogic {
	return &DeductLogic{ctx: ctx, svcCtx: svcCtx}
}

// Deduct checks the stock it read and writes the difference back.
func (l *DeductLogic) Deduct(req *types.DeductReq) error {
	p, err := l.svcCtx.TProductModel.FindOne(l.ctx, req.Id)
	if err != nil {
		return err
	}
	if p.Stock < req.Num {
		return model.ErrInsufficient
	}
	p.Stock -= req.Num
	// unsafe GQ003: when the lock expires, a second deduction between FindOne and Update is overwritten (oversell).
	return l.svcCtx.TProductModel.Update(l.ctx, p)
}

// DeductWithVersion is the same read-modify-write through the version compare.
func (l *DeductLogic) DeductWithVersion(req *types.DeductReq) error {
	p, err := l.svcCtx.TProductModel.FindOne(l.ctx, req.Id)
	if err != nil {
		return err
	}
	if p.Stock < req.Num {
		return model.ErrInsufficient
	}
	p.Stock -= req.Num
	// safe: UpdateWithVersion fails with ErrNoRowsUpdate when the row changed since FindOne.
	return l.svcCtx.TProductModel.UpdateWithVersion(l.ctx, p)
}

// DeductGuarded leaves the decision to the database.
func (l *DeductLogic) DeductGuarded(req *types.DeductReq) error {
	// safe: the hand-written model method's UPDATE guards the stock itself.
	return l.svcCtx.TProductModel.DeductStock(l.ctx, req.Id, req.Num)
}
