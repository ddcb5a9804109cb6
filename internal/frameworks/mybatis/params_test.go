package mybatis

import (
	"fmt"
	"testing"

	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

const stockMapper = `package shop;

import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Update;

public interface StockMapper {
    int addStock(@Param("id") long id, @Param("delta") int delta);

    int applyDelta(StockDelta d);

    int restock(long n);

    int moveBoth(@Param("from") StockDelta from, long qty);

    @Update("UPDATE t_stock SET qty = qty + #{delta} WHERE id = #{id} AND tenant = ${tenant}")
    int moveStock(@Param("id") long id, @Param("delta") int delta);

    int twice(long id);
    int twice(long id, int n);

    @Update("<script>UPDATE t_stock SET qty = qty + #{d.delta} <where><foreach collection='ids' item='i'>id = #{i}</foreach></where></script>")
    int scripted(@Param("d") StockDelta d, @Param("ids") List<Long> ids);
}
`

// TestBind resolves the names a statement gives its values as MyBatis
// binds them: by @Param, by the parameter's own name, param1…, arg0… (not
// for a @Param one), and the properties of one parameter object.
func TestBind(t *testing.T) {
	f := java.ExtractJava("StockMapper.java", []byte(stockMapper))
	ix := NewParamIndex([]*java.File{f})
	for _, tc := range []struct{ method, name, want string }{
		{"addStock", "delta", "arg 1 of 2"},
		{"addStock", "param2", "arg 1 of 2"},
		{"addStock", "arg1", "none"}, // a @Param parameter is not argN
		{"addStock", "delta.sign", "none"},
		{"addStock", "other", "none"},
		{"applyDelta", "delta", "arg 0 of 1 .delta"},
		{"applyDelta", "item.delta", "arg 0 of 1 .item.delta"},
		{"restock", "anything", "arg 0 of 1"},
		{"restock", "n.value", "none"},
		{"moveBoth", "from.delta", "arg 0 of 2 .delta"},
		{"moveBoth", "qty", "arg 1 of 2"},
		{"moveBoth", "arg1", "arg 1 of 2"},
		{"twice", "id", "none"}, // overloaded
		{"absent", "id", "none"},
	} {
		got := "none"
		if ps, ok := ix.Resolve("shop.StockMapper", stmt.ParamSource{Param: 0, Arg: -1, Func: tc.method, Name: tc.name}); ok {
			got = fmt.Sprintf("arg %d of %d", ps.Arg, ps.Params)
			if ps.Prop != "" {
				got += " ." + ps.Prop
			}
		}
		if got != tc.want {
			t.Errorf("%s #{%s}: %s, want %s", tc.method, tc.name, got, tc.want)
		}
	}
	if _, ok := ix.Resolve("other.StockMapper", stmt.ParamSource{Arg: -1, Func: "addStock", Name: "delta"}); ok {
		t.Error("another namespace's statement resolved")
	}
}

// TestAnnotationSources: the placeholders of an annotation that adds are
// bound to its method's parameters while the file is read, in a <script>
// too; a ${…} takes a place and binds nothing, nor does a <foreach> item.
func TestAnnotationSources(t *testing.T) {
	f := java.ExtractJava("StockMapper.java", []byte(stockMapper))
	var got []string
	for _, fr := range f.Fragments {
		got = append(got, fmt.Sprint(fr.ParamSources))
	}
	want := []string{"[{0 1 moveStock 2  delta} {1 0 moveStock 2  id}]", "[{0 0 scripted 2 delta d.delta}]"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("sources %s, want %s", got, want)
	}
}
