package mybatis

import (
	"maps"
	"slices"
	"testing"

	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/stmt"
)

// TestDollarChecked checks when the value a hand-written mapper's ${…}
// pastes is checked before use: through the constraints of the mapper
// method's parameter, a field of its parameter object, or the checks of
// every call of the method; each with the twin that is not.
func TestDollarChecked(t *testing.T) {
	const queries = `package shop.mapper;
import org.apache.ibatis.annotations.Param;
public interface InventoryQueries {
    List<Map<String, Object>> search(@Param("tenantId") long tenantId, @Param("sort") String sort);
    List<Map<String, Object>> byQuery(@Param("q") PageQuery q);
    List<Map<String, Object>> single(PageQuery q);
    List<Map<String, Object>> pattern(@Param("sort") @Pattern(regexp = "[a-z_]+( (asc|desc))?") String sort);
    List<Map<String, Object>> loose(@Param("sort") @Pattern(regexp = "[^;]+") String sort);
}
`
	const pageQuery = `package shop;
public class PageQuery {
    @Pattern(regexp = "[a-z_]+")
    private String sort;
    private String order;
}
`
	const checkedCaller = `package shop.service;
public class InventoryService {
    private static final Set<String> SORTS = Set.of("id", "inventory");
    @Autowired
    private InventoryQueries queries;

    public List<Map<String, Object>> search(long tenant, String sort) {
        if (!SORTS.contains(sort)) {
            throw new IllegalArgumentException(sort);
        }
        return queries.search(tenant, sort);
    }
}
`
	const uncheckedCaller = `package shop.service;
public class ReportService {
    private final InventoryQueries queries;

    public List<Map<String, Object>> report(long tenant, String sort) {
        return this.queries.search(tenant, sort);
    }
}
`
	xml := func(id, expr string) (*stmt.Fragment, stmt.Dollar) {
		return &stmt.Fragment{File: "InventoryQueries.xml", Lang: stmt.LangXML, Namespace: "shop.mapper.InventoryQueries", ID: id},
			stmt.Dollar{Expr: expr}
	}
	tests := []struct {
		name  string
		files map[string]string
		id    string
		expr  string
		want  bool
	}{
		{"a caller checks against a constant set", map[string]string{"Q.java": queries, "S.java": checkedCaller}, "search", "sort", true},
		{"another caller does not", map[string]string{"Q.java": queries, "S.java": checkedCaller, "R.java": uncheckedCaller}, "search", "sort", false},
		{"no caller seen", map[string]string{"Q.java": queries}, "search", "sort", false},
		{"a field of the parameter object", map[string]string{"Q.java": queries, "P.java": pageQuery}, "byQuery", "q.sort", true},
		{"an unconstrained field of it", map[string]string{"Q.java": queries, "P.java": pageQuery}, "byQuery", "q.order", false},
		{"the one parameter's property", map[string]string{"Q.java": queries, "P.java": pageQuery}, "single", "sort", true},
		{"@Pattern on the mapper's parameter", map[string]string{"Q.java": queries}, "pattern", "sort", true},
		{"a @Pattern that admits anything but ;", map[string]string{"Q.java": queries}, "loose", "sort", false},
		{"a method no interface declares", map[string]string{"Q.java": queries}, "other", "sort", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var jfs []*java.File
			for _, name := range slices.Sorted(maps.Keys(tt.files)) {
				jfs = append(jfs, java.ExtractJava(name, []byte(tt.files[name])))
			}
			fr, d := xml(tt.id, tt.expr)
			if got := NewIndex(jfs).Checked(fr, d); got != tt.want {
				t.Errorf("Checked(%s, ${%s}) = %v, want %v", tt.id, tt.expr, got, tt.want)
			}
		})
	}
}

// TestDollarCheckedAnnotation checks the ${…} of a statement annotation,
// whose mapper method stands in the same file.
func TestDollarCheckedAnnotation(t *testing.T) {
	src := `package shop.mapper;
public interface StockMapper {
    @Select("SELECT id FROM t_stock ORDER BY ${sort}")
    List<Long> page(@Param("sort") @Pattern(regexp = "[a-z_]+") String sort);
    @Select("SELECT id FROM t_stock ORDER BY ${sort}")
    List<Long> raw(@Param("sort") String sort);
}
`
	jf := java.ExtractJava("StockMapper.java", []byte(src))
	ix := NewIndex([]*java.File{jf})
	for id, want := range map[string]bool{"page": true, "raw": false} {
		fr := &stmt.Fragment{File: "StockMapper.java", Lang: stmt.LangJava, ID: id}
		if got := ix.Checked(fr, stmt.Dollar{Expr: "sort"}); got != want {
			t.Errorf("Checked(%s) = %v, want %v", id, got, want)
		}
	}
}
