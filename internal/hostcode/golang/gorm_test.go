package golang

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/stmt"
)

// gormModelsSrc declares the models the GORM cases write, in a file of its
// own as projects do.
const gormModelsSrc = `package model

import (
	"gorm.io/gorm"
	"gorm.io/plugin/optimisticlock"
)

type Product struct {
	ID     int64
	Stock  int
	Name   string
	Status *bool
}

func (Product) TableName() string { return "t_product" }

type Inventory struct {
	ID        int64 ` + "`gorm:\"primaryKey\"`" + `
	Inventory int   ` + "`gorm:\"column:inventory\"`" + `
	Status    string
}

type Order struct {
	gorm.Model
	Status int
}

type Account struct {
	ID      int64
	Balance int64
	Version optimisticlock.Version
}

type OrderItem struct {
	ID  int64 ` + "`gorm:\"primarykey\"`" + `
	Qty int
}
`

// gormModels indexes gormModelsSrc as lint does for a run.
func gormModels(t *testing.T) *GoModels {
	t.Helper()
	m := &GoModels{}
	m.Add(ReadGoModels("internal/model/model.go", []byte(gormModelsSrc)))
	return m
}

// gormFile wraps a function body in a file of another package.
func gormFile(body ...string) string {
	return "package repo\n\nimport (\n\t\"context\"\n\n\t\"gorm.io/gorm\"\n\n\t\"shop/internal/model\"\n)\n\n" +
		"func f(ctx context.Context, db *gorm.DB, id, n int64) error {\n\t" + strings.Join(body, "\n\t") + "\n\treturn nil\n}\n"
}

func TestExtractGoGormChains(t *testing.T) {
	models := gormModels(t)
	cases := []struct {
		name string
		body []string
		sql  string // "" when nothing may be rendered
		exec *stmt.Exec
	}{
		{"guarded decrement, RowsAffected compared", []string{
			`res := db.WithContext(ctx).Model(&model.Product{}).Where("id = ? AND stock >= ?", id, n).Update("stock", gorm.Expr("stock - ?", n))`,
			`if res.RowsAffected == 0 { return nil }`,
		}, "UPDATE `t_product` SET `stock` = stock - ? WHERE (id = ? AND stock >= ?)", &stmt.Exec{Method: "Update", ResultChecked: true, Returns: stmt.ReturnsHandle}},
		{"Error alone is not a check", []string{
			`err := db.Model(&model.Product{}).Where("id = ?", id).UpdateColumn("stock", gorm.Expr("stock - ?", n)).Error`,
			`_ = err`,
		}, "UPDATE `t_product` SET `stock` = stock - ? WHERE (id = ?)", &stmt.Exec{Method: "UpdateColumn", Returns: stmt.ReturnsHandle}},
		{"statement of its own", []string{
			`db.Model(&model.Product{}).Where("id = ?", id).Update("stock", gorm.Expr("stock - ?", n))`,
		}, "UPDATE `t_product` SET `stock` = stock - ? WHERE (id = ?)", &stmt.Exec{Method: "Update", ResultDiscarded: true, Returns: stmt.ReturnsHandle}},
		{"default table name, column tag, map of expressions", []string{
			`db.Model(&model.Inventory{}).Where("id = ?", id).Updates(map[string]interface{}{"inventory": gorm.Expr("inventory - ?", n), "status": "low"})`,
		}, "UPDATE `inventories` SET `inventory` = inventory - ?, `status` = 'low' WHERE (id = ?)", &stmt.Exec{Method: "Updates", ResultDiscarded: true, Returns: stmt.ReturnsHandle}},
		{"struct condition and IN expanded", []string{
			`db.Where(&model.Inventory{ID: id}).Where("status in ?", []string{"a"}).Updates(model.Inventory{Status: "b", Inventory: 0})`,
		}, "UPDATE `inventories` SET `status` = 'b' WHERE `id` = ? AND (status in (?))", &stmt.Exec{Method: "Updates", ResultDiscarded: true, Returns: stmt.ReturnsHandle}},
		{"model key, soft delete", []string{
			`db.Model(&model.Order{Model: gorm.Model{}}).Where("status = ?", 1).Update("Status", 2)`,
		}, "UPDATE `orders` SET `status` = 2 WHERE (status = 1) AND `deleted_at` IS NULL", &stmt.Exec{Method: "Update", ResultDiscarded: true, Returns: stmt.ReturnsHandle}},
		{"bare column condition", []string{
			`db.Table("t_product").Where("id", id).Update("stock", gorm.Expr("stock + ?", n))`,
		}, "UPDATE `t_product` SET `stock` = stock + ? WHERE `id` = ?", &stmt.Exec{Method: "Update", ResultDiscarded: true, Returns: stmt.ReturnsHandle}},
		{"optimistic lock adds the bump and the compare", []string{
			`var a model.Account`,
			`db.First(&a, id)`,
			`db.Model(&a).Update("balance", a.Balance-n)`,
		}, "UPDATE `accounts` SET `balance` = ?, `version` = `version` + 1 WHERE `id` = ? AND `version` = ?", &stmt.Exec{Method: "Update", ResultDiscarded: true, Returns: stmt.ReturnsHandle}},
		{"a bool field is a switch, left out", []string{
			`db.Model(&model.Product{}).Where("id = ?", id).Updates(map[string]interface{}{"name": "x", "status": false})`,
		}, "UPDATE `t_product` SET `name` = 'x' WHERE (id = ?)", &stmt.Exec{Method: "Updates", ResultDiscarded: true, Returns: stmt.ReturnsHandle}},
		{"only a switch: nothing to judge", []string{
			`db.Model(&model.Product{}).Where("id = ?", id).Update("Status", false)`,
		}, "", nil},
		{"no WHERE: GORM refuses it", []string{
			`db.Model(&model.Product{}).Update("stock", 0)`,
		}, "", nil},
		{"AllowGlobalUpdate sends it", []string{
			`db.Session(&gorm.Session{AllowGlobalUpdate: true}).Model(&model.Product{}).Update("stock", 0)`,
		}, "UPDATE `t_product` SET `stock` = 0", &stmt.Exec{Method: "Update", ResultDiscarded: true, Returns: stmt.ReturnsHandle}},
		{"the project's accessor of its handle", []string{
			`r.data.DB(ctx).Model(&model.Product{}).Where("id = ?", id).Update("stock", gorm.Expr("stock + ?", n))`,
		}, "UPDATE `t_product` SET `stock` = stock + ? WHERE (id = ?)", &stmt.Exec{Method: "Update", ResultDiscarded: true, Returns: stmt.ReturnsHandle}},
		{"a link guard does not know", []string{
			`db.Model(&model.Product{}).Scopes(byShop).Where("id = ?", id).Update("stock", gorm.Expr("stock - ?", n))`,
		}, "", nil},
		{"Select names the columns set, zero values included", []string{
			`db.Model(&model.Product{}).Select("stock").Where("id = ?", id).Updates(model.Product{Stock: 0, Name: "x"})`,
		}, "UPDATE `t_product` SET `stock` = 0 WHERE (id = ?)", &stmt.Exec{Method: "Updates", ResultDiscarded: true, Returns: stmt.ReturnsHandle}},
		{"Select of a column the map does not set", []string{
			`db.Model(&model.Product{}).Select("name").Where("id = ?", id).Updates(map[string]interface{}{"stock": 1})`,
		}, "", nil},
		{"Select of every field", []string{
			`db.Model(&model.Product{}).Select("*").Where("id = ?", id).Updates(model.Product{Stock: 0})`,
		}, "UPDATE `t_product` SET `stock` = 0 WHERE (id = ?)", &stmt.Exec{Method: "Updates", ResultDiscarded: true, Returns: stmt.ReturnsHandle}},
		{"a model guard does not know", []string{
			`db.Model(&other.Thing{}).Where("id = ?", id).Update("stock", gorm.Expr("stock - ?", n))`,
		}, "", nil},
		{"a repository method named Update", []string{
			`repo.Update(ctx, &model.Product{ID: id})`,
		}, "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := ExtractGoWith("internal/repo/repo.go", []byte(gormFile(c.body...)), models)
			var got []*stmt.Fragment
			for _, fr := range f.Fragments {
				if fr.Builder == gormBuilder {
					got = append(got, fr)
				}
			}
			if c.sql == "" {
				if len(got) > 0 {
					t.Fatalf("rendered %q, want nothing", got[0].SQL)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("got %d rendered chains, want 1", len(got))
			}
			if got[0].SQL != c.sql {
				t.Errorf("SQL\n got %s\nwant %s", got[0].SQL, c.sql)
			}
			if d := cmp.Diff(c.exec, got[0].Exec); d != "" {
				t.Errorf("Exec (-want +got):\n%s", d)
			}
			line := 12
			for i, b := range c.body {
				if strings.Contains(b, ".Update") {
					line = 12 + i
					break
				}
			}
			if got[0].Line != line {
				t.Errorf("Line = %d, want %d (the chain's first line)", got[0].Line, line)
			}
		})
	}
}

func TestExtractGoGormParamReads(t *testing.T) {
	models := gormModels(t)
	src := gormFile(
		`var p model.Product`,
		`db.Where("id = ?", id).First(&p)`,
		`db.Where("id = ? AND stock >= ?", id, n).Updates(model.Product{Stock: p.Stock - int(n), Name: name})`,
	)
	f := ExtractGoWith("internal/repo/repo.go", []byte(src), models)
	if len(f.Fragments) != 1 {
		t.Fatalf("got %d fragments, want 1", len(f.Fragments))
	}
	want := []stmt.ParamRead{{Param: 0, Read: stmt.MapperRead{Variable: "p", Method: "First", Line: 13}, Text: "p.Stock - int(n)", Decrement: true}}
	if d := cmp.Diff(want, f.Fragments[0].ParamReads); d != "" {
		t.Errorf("ParamReads (-want +got):\n%s", d)
	}
}

func TestExtractGoGormEntityWrites(t *testing.T) {
	models := gormModels(t)
	cases := []struct {
		name string
		body []string
		want []stmt.MapperCall
	}{
		{"read, decremented, saved", []string{
			`var p model.Product`,
			`db.First(&p, id)`,
			`p.Stock -= int(n)`,
			`db.Save(&p)`,
		}, []stmt.MapperCall{{Mapper: "db", Method: "Save", Entity: "Product", Record: "p",
			RecordRead: &stmt.MapperRead{Variable: "p", Method: "First", Line: 13},
			Sets: []stmt.PropertySet{{Property: "stock", Form: stmt.ValueFromRead, Read: &stmt.MapperRead{Variable: "p", Method: "First", Line: 13},
				Text: "p.Stock - int(n)", Line: 14, Decrement: true}},
			Criteria: []stmt.Criterion{{Property: "id", Op: "EqualTo"}}, CriteriaKnown: true, HostMethod: "f",
			Framework: stmt.FrameworkGORM, Table: "t_product", Line: 15, Col: 2, EndLine: 15,
			Statement: "GORM db.Save(&p) (UPDATE t_product SET … WHERE id = ?)", Advice: gormAdvice}}},
		{"state set after a read, Updates of the record", []string{
			`inv := model.Inventory{}`,
			`tx := db.Begin()`,
			`tx.Where("id = ?", id).Take(&inv)`,
			`inv.Status = "shipped"`,
			`tx.WithContext(ctx).Updates(&inv)`,
		}, []stmt.MapperCall{{Mapper: "tx", Method: "Updates", Entity: "Inventory", Record: "inv",
			RecordRead: &stmt.MapperRead{Variable: "inv", Method: "Take", Line: 14},
			Sets:       []stmt.PropertySet{{Property: "status", Form: stmt.ValueLiteral, Text: `"shipped"`, Line: 15}},
			Criteria:   []stmt.Criterion{{Property: "id", Op: "EqualTo"}}, CriteriaKnown: true, HostMethod: "f",
			Framework: stmt.FrameworkGORM, Table: "inventories", Line: 16, Col: 2, EndLine: 16,
			Statement: "GORM tx.Updates(&inv) (UPDATE inventories SET … WHERE id = ?)", Advice: gormAdvice,
			Context: &stmt.Context{Transaction: "Begin()"}}}},
		{"optimistic lock: a compare-and-set", []string{
			`var a model.Account`,
			`db.First(&a, id)`,
			`a.Balance -= n`,
			`db.Save(&a)`,
		}, nil},
		{"a Where before the write is left alone", []string{
			`var p model.Product`,
			`db.First(&p, id)`,
			`p.Stock--`,
			`db.Where("stock > 0").Save(&p)`,
		}, nil},
		{"nothing assigned", []string{
			`var p model.Product`,
			`db.First(&p, id)`,
			`db.Save(&p)`,
		}, nil},
		{"a new record from another read is an INSERT", []string{
			`var p model.Product`,
			`db.First(&p, id)`,
			`q := model.Product{Stock: p.Stock - int(n)}`,
			`db.Save(&q)`,
		}, nil},
		{"a slice of records", []string{
			`var ps []model.Product`,
			`db.Find(&ps)`,
			`db.Save(&ps)`,
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := ExtractGoWith("internal/repo/repo.go", []byte(gormFile(c.body...)), models)
			if d := cmp.Diff(c.want, f.MapperCalls); d != "" {
				t.Errorf("MapperCalls (-want +got):\n%s", d)
			}
		})
	}
}

func TestExtractGoNamedExecReads(t *testing.T) {
	src := "package repo\n\ntype Item struct {\n\tID    int64 `db:\"id\"`\n\tStock int   `db:\"stock\"`\n}\n\n" +
		"func f(db *sqlx.DB, id int64, n int) error {\n" +
		"\tvar it Item\n" +
		"\tif err := db.Get(&it, \"SELECT id, stock FROM t_item WHERE id = ?\", id); err != nil {\n\t\treturn err\n\t}\n" +
		"\tit.Stock = it.Stock - n\n" +
		"\t_, err := db.NamedExec(\"UPDATE t_item SET stock = :stock WHERE id = :id\", it)\n" +
		"\treturn err\n}\n"
	f := ExtractGo("repo/item.go", []byte(src))
	var upd *stmt.Fragment
	for _, fr := range f.Fragments {
		if strings.HasPrefix(fr.SQL, "UPDATE") {
			upd = fr
		}
	}
	if upd == nil {
		t.Fatal("no UPDATE fragment")
	}
	want := []stmt.ParamRead{{Param: 0, Read: stmt.MapperRead{Variable: "it", Method: "Get", Line: 10}, Text: "it.Stock - n", Decrement: true}}
	if d := cmp.Diff(want, upd.ParamReads); d != "" {
		t.Errorf("ParamReads (-want +got):\n%s", d)
	}
}

func TestGoModelNaming(t *testing.T) {
	for in, want := range map[string]string{
		"Product": "product", "UserID": "user_id", "HTTPCode": "http_code", "MallGoodsInfo": "mall_goods_info", "Sku2Stock": "sku2_stock",
	} {
		if got := GoColumnName(in); got != want {
			t.Errorf("GoColumnName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"product": "products", "category": "categories", "address": "addresses", "box": "boxes", "day": "days", "information": "information",
	} {
		if got := goPlural(in); got != want {
			t.Errorf("goPlural(%q) = %q, want %q", in, got, want)
		}
	}
	m := gormModels(t)
	m.HasTable = func(n string) bool { return n == "order_item" }
	if got, _ := m.TableOf(m.Lookup("internal/repo", "shop/internal/model", "OrderItem")); got != "order_item" {
		t.Errorf("TableOf(OrderItem) = %q, want the singular the schema has", got)
	}
	if m.Lookup("internal/repo", "shop/other", "OrderItem") != nil {
		t.Error("Lookup found a type through an import of another folder")
	}
}
