package logic

import (
	"context"

	"github.com/zeromicro/go-zero/core/stores/sqlx"
	"shop/inventory/model"
	"shop/inventory/rpc/internal/svc"
	"shop/inventory/rpc/pb"
)

type DeductLogic struct {
	ctx    context.Context
	svcCtx *svc.ServiceContext
}

// Deduct computes the stock from the row it read and writes it back by the
// generated Update: a concurrent deduction between the two is lost.
func (l *DeductLogic) Deduct(in *pb.DeductReq) error {
	inv, err := l.svcCtx.TInventoryModel.FindOne(l.ctx, in.Id)
	if err != nil {
		return err
	}
	if inv.Inventory < in.Num {
		return model.ErrInsufficient
	}
	inv.Inventory -= in.Num
	return l.svcCtx.TInventoryModel.Update(l.ctx, inv) // want "GQ003 counter t_inventory.inventory is set to inv.Inventory - in.Num, computed from inv read by TInventoryModel.FindOne at line 20, and written by TInventoryModel.Update → defaultTInventoryModel.Update \\(.*goctl_tinventorymodel_gen.go:52\\)"
}

// DeductLiteral builds the record in the call.
func (l *DeductLogic) DeductLiteral(in *pb.DeductReq) error {
	inv, err := l.svcCtx.TInventoryModel.FindOne(l.ctx, in.Id)
	if err != nil {
		return err
	}
	return l.svcCtx.TInventoryModel.Update(l.ctx, &model.TInventory{Id: inv.Id, ProductId: inv.ProductId, Inventory: inv.Inventory - in.Num, Version: inv.Version}) // want "GQ003 counter t_inventory.inventory is set to inv.Inventory - in.Num"
}

// DeductInTrans reads outside the transaction and writes inside it: the
// transaction does not make the read current.
func (l *DeductLogic) DeductInTrans(in *pb.DeductReq) error {
	inv, err := l.svcCtx.TInventoryModel.FindOne(l.ctx, in.Id)
	if err != nil {
		return err
	}
	return l.svcCtx.TInventoryModel.Trans(l.ctx, func(ctx context.Context, session sqlx.Session) error {
		inv.Inventory = inv.Inventory - in.Num
		return l.svcCtx.TInventoryModel.Update(ctx, inv) // want "GQ003 counter t_inventory.inventory is set to inv.Inventory - in.Num"
	})
}

// DeductWithVersion is the safe twin: the generated compare-and-set.
func (l *DeductLogic) DeductWithVersion(in *pb.DeductReq) error {
	inv, err := l.svcCtx.TInventoryModel.FindOne(l.ctx, in.Id)
	if err != nil {
		return err
	}
	inv.Inventory -= in.Num
	return l.svcCtx.TInventoryModel.UpdateWithVersion(l.ctx, inv)
}

// DeductGuarded is the other safe twin: a statement that guards itself.
func (l *DeductLogic) DeductGuarded(in *pb.DeductReq) error {
	return l.svcCtx.TInventoryModel.DecrInventory(l.ctx, in.Id, in.Num)
}

// Rename changes a column the read does not feed; the stock is written back
// as read, which the model's own statement already answers for.
func (l *DeductLogic) Rename(in *pb.RenameReq) error {
	inv, err := l.svcCtx.TInventoryModel.FindOne(l.ctx, in.Id)
	if err != nil {
		return err
	}
	inv.Note = in.Note
	return l.svcCtx.TInventoryModel.Update(l.ctx, inv)
}

// Restock sets the stock a form gives: not computed from the read, but
// written over the decrements the model makes elsewhere.
func (l *DeductLogic) Restock(in *pb.RestockReq) error {
	inv, err := l.svcCtx.TInventoryModel.FindOne(l.ctx, in.Id)
	if err != nil {
		return err
	}
	inv.Inventory = in.Inventory
	return l.svcCtx.TInventoryModel.Update(l.ctx, inv) // want "GQ003 counter t_inventory.inventory is set to .*, a value the caller supplies, .* while the code decrements it at .*: a decrement committed after that value was read is undone"
}

// NoteFromRead goes through a method whose statement writes the note only.
func (l *DeductLogic) NoteFromRead(in *pb.DeductReq) error {
	inv, err := l.svcCtx.TInventoryModel.FindOne(l.ctx, in.Id)
	if err != nil {
		return err
	}
	inv.Inventory -= in.Num
	return l.svcCtx.TInventoryModel.SetNote(l.ctx, inv)
}

// Elsewhere calls a model the project does not hold: nothing is known of
// its statement.
func (l *DeductLogic) Elsewhere(in *pb.DeductReq) error {
	w, err := l.svcCtx.WarehouseModel.FindOne(l.ctx, in.Id)
	if err != nil {
		return err
	}
	w.Inventory -= in.Num
	return l.svcCtx.WarehouseModel.Update(l.ctx, w)
}

// DeductLocked reads the row under FOR UPDATE in the transaction that
// writes it: the read stays current until the commit.
func (l *DeductLogic) DeductLocked(in *pb.DeductReq) error {
	return l.svcCtx.TInventoryModel.Trans(l.ctx, func(ctx context.Context, session sqlx.Session) error {
		inv, err := l.svcCtx.TInventoryModel.FindOneForUpdate(ctx, session, in.Id)
		if err != nil {
			return err
		}
		inv.Inventory -= in.Num
		return l.svcCtx.TInventoryModel.Update(ctx, inv)
	})
}
