package logic

import (
	"context"

	"shop/api/internal/svc"
	"shop/api/internal/types"
	"shop/inventory/rpc/inventory"
	"shop/inventory/rpc/pb"
)

type ReserveLogic struct {
	ctx    context.Context
	svcCtx *svc.ServiceContext
}

// Reserve reads the stock through one RPC and sends the difference through
// another, whose server writes it by the generated Update.
func (l *ReserveLogic) Reserve(req *types.ReserveReq) error {
	r, err := l.svcCtx.InventoryRpc.GetInventory(l.ctx, &pb.GetInventoryReq{Id: req.Id})
	if err != nil {
		return err
	}
	_, err = l.svcCtx.InventoryRpc.AdjustInventory(l.ctx, &pb.AdjustInventoryReq{ // want "GQ003 counter t_inventory.inventory is set to r.Inventory - req.Num, computed from r read by InventoryRpc.GetInventory at line 20, sent as AdjustInventoryReq.Inventory to RPC AdjustInventory, whose logic \\(.*goctl_adjustinventorylogic.go:26\\) writes it by TInventoryModel.Update"
		Id:        r.Id,
		Inventory: r.Inventory - req.Num,
	})
	return err
}

// ReserveWithVersion is the safe twin: the server compares the version the
// caller read.
func (l *ReserveLogic) ReserveWithVersion(req *types.ReserveReq) error {
	r, err := l.svcCtx.InventoryRpc.GetInventory(l.ctx, &pb.GetInventoryReq{Id: req.Id})
	if err != nil {
		return err
	}
	_, err = l.svcCtx.InventoryRpc.SetInventory(l.ctx, &pb.SetInventoryReq{Id: r.Id, Inventory: r.Inventory - req.Num, Version: r.Version})
	return err
}

// SetFromForm sends what the user typed: nothing was read.
func (l *ReserveLogic) SetFromForm(req *types.ReserveReq) error {
	_, err := l.svcCtx.InventoryRpc.AdjustInventory(l.ctx, &pb.AdjustInventoryReq{Id: req.Id, Inventory: req.Inventory})
	return err
}

// ReserveThroughClient names the request type through goctl's client
// package, which aliases the server's: the one server of that RPC and type
// name answers it.
func (l *ReserveLogic) ReserveThroughClient(req *types.ReserveReq) error {
	r, err := l.svcCtx.InventoryRpc.GetInventory(l.ctx, &inventory.GetInventoryReq{Id: req.Id})
	if err != nil {
		return err
	}
	_, err = l.svcCtx.InventoryRpc.AdjustInventory(l.ctx, &inventory.AdjustInventoryReq{Id: r.Id, Inventory: r.Inventory - req.Num}) // want "GQ003 counter t_inventory.inventory is set to r.Inventory - req.Num, computed from r read by InventoryRpc.GetInventory at line 52, sent as AdjustInventoryReq.Inventory"
	return err
}
