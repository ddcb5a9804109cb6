package source

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGoctlCalls(t *testing.T) {
	src := goSrc(
		"package logic",
		"import (",
		"	\"shop/model\"",
		"	\"shop/rpc/pb\"",
		")",
		"func (l *DeductLogic) Deduct(in *pb.DeductReq) error {",
		"	p, err := l.svcCtx.ProductModel.FindOne(l.ctx, in.Id)",
		"	p.Stock -= in.Num",
		"	p.Status = model.StatusSold",
		"	p.Note = in.Note",
		"	p.Hits++",
		"	l.svcCtx.ProductModel.Insert(l.ctx, p)",
		"	return l.svcCtx.ProductModel.Update(l.ctx, p)",
		"}",
		"func (l *X) literal(id, n int64) {",
		"	p, _ := l.svcCtx.ProductModel.FindOne(l.ctx, id)",
		"	l.svcCtx.ProductModel.Update(l.ctx, &model.Product{Id: p.Id, Stock: p.Stock - n, Name: p.Name, State: 2})",
		"	l.svcCtx.ProductModel.DecrStock(l.ctx, id, n)",
		"}",
		"func (l *X) twice(id int64) {",
		"	p, _ := l.svcCtx.ProductModel.FindOne(l.ctx, id)",
		"	p, _ = l.svcCtx.ProductModel.FindOne(l.ctx, id+1)",
		"	p.Stock = p.Stock - 1",
		"	l.svcCtx.ProductModel.WithSession(s).Update(l.ctx, p)",
		"}",
		"func (l *X) rpc(id int64) {",
		"	r, _ := l.svcCtx.ProductRpc.Detail(l.ctx, &pb.DetailReq{Id: id})",
		"	l.svcCtx.ProductRpc.Update(l.ctx, &pb.UpdateReq{Id: r.Id, Stock: r.Stock - 1})",
		"	l.svcCtx.Product.Update(l.ctx, &pb.UpdateReq{Id: r.Id})",
		"}",
	)
	got := ExtractGo("deduct.go", []byte(src)).MapperCalls
	read7 := &MapperRead{Variable: "p", Method: "ProductModel.FindOne", Line: 7}
	read16 := &MapperRead{Variable: "p", Method: "ProductModel.FindOne", Line: 16}
	rpc := &MapperRead{Variable: "r", Method: "ProductRpc.Detail", Line: 27}
	want := []MapperCall{
		{
			Mapper: "ProductModel", Method: "Update", Record: "p", RecordRead: read7, HostMethod: "DeductLogic.Deduct",
			Framework: FrameworkGoctl, Request: "shop/rpc/pb.DeductReq", Line: 13, Col: 9, EndLine: 13,
			Sets: []PropertySet{
				{Property: "Stock", Form: ValueFromRead, Read: read7, Text: "p.Stock - in.Num", Line: 8},
				{Property: "Status", Form: ValueLiteral, Text: "model.StatusSold", Line: 9},
				{Property: "Note", Form: ValueOther, Text: "in.Note", Line: 10, Param: "Note"},
				{Property: "Hits", Form: ValueFromRead, Read: read7, Text: "p.Hits + 1", Line: 11},
			},
		},
		{
			Mapper: "ProductModel", Method: "Update", Entity: "Product", HostMethod: "X.literal",
			Framework: FrameworkGoctl, Line: 17, Col: 2, EndLine: 17,
			Sets: []PropertySet{
				{Property: "Id", Form: ValueFromRead, Read: read16, CopiesRead: true, Text: "p.Id", Line: 17},
				{Property: "Stock", Form: ValueFromRead, Read: read16, Text: "p.Stock - n", Line: 17},
				{Property: "Name", Form: ValueFromRead, Read: read16, CopiesRead: true, Text: "p.Name", Line: 17},
				{Property: "State", Form: ValueLiteral, Text: "2", Line: 17},
			},
		},
		{
			Mapper: "ProductModel", Method: "Update", Record: "p", HostMethod: "X.twice",
			Framework: FrameworkGoctl, Line: 24, Col: 2, EndLine: 24,
			Sets: []PropertySet{{Property: "Stock", Form: ValueOther, Text: "p.Stock - 1", Line: 23}},
		},
		{
			Mapper: "shop/rpc/pb.UpdateReq", Method: "Update", Entity: "UpdateReq", HostMethod: "X.rpc",
			Framework: FrameworkGoZeroRPC, Line: 28, Col: 2, EndLine: 28,
			Sets: []PropertySet{
				{Property: "Id", Form: ValueFromRead, Read: rpc, CopiesRead: true, Text: "r.Id", Line: 28},
				{Property: "Stock", Form: ValueFromRead, Read: rpc, Text: "r.Stock - 1", Line: 28},
			},
		},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
}
