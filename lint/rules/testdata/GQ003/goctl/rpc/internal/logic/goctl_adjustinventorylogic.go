package logic

import (
	"context"

	"shop/inventory/rpc/internal/svc"
	"shop/inventory/rpc/pb"
)

type AdjustInventoryLogic struct {
	ctx    context.Context
	svcCtx *svc.ServiceContext
}

// AdjustInventory stores the stock its caller sends: whether that is safe
// depends on where the caller got it, and the decrements made meanwhile
// elsewhere are undone whatever it was.
func (l *AdjustInventoryLogic) AdjustInventory(in *pb.AdjustInventoryReq) (*pb.AdjustInventoryResp, error) {
	inv, err := l.svcCtx.TInventoryModel.FindOne(l.ctx, in.Id)
	if err != nil {
		return nil, err
	}
	if in.Inventory != 0 {
		inv.Inventory = in.Inventory
	}
	if err := l.svcCtx.TInventoryModel.Update(l.ctx, inv); err != nil { // want "GQ003 counter t_inventory.inventory is set to .*, a value the caller supplies, .* while the code decrements it at .*: a decrement committed after that value was read is undone"
		return nil, err
	}
	return &pb.AdjustInventoryResp{}, nil
}

type SetInventoryLogic struct {
	ctx    context.Context
	svcCtx *svc.ServiceContext
}

// SetInventory takes the version the caller read and compares it.
func (l *SetInventoryLogic) SetInventory(in *pb.SetInventoryReq) (*pb.SetInventoryResp, error) {
	inv, err := l.svcCtx.TInventoryModel.FindOne(l.ctx, in.Id)
	if err != nil {
		return nil, err
	}
	inv.Inventory = in.Inventory
	inv.Version = in.Version
	if err := l.svcCtx.TInventoryModel.UpdateWithVersion(l.ctx, inv); err != nil {
		return nil, err
	}
	return &pb.SetInventoryResp{}, nil
}
