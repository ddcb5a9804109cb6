package mybatis

import (
	"testing"

	"github.com/guard-sql/guard/internal/hostcode/java"
)

// TestMapper reads a mapper's statement annotations through the Java
// reader, with the twin that must stay quiet: a web framework's @Delete.
func TestMapper(t *testing.T) {
	src := `package shop;

import org.apache.ibatis.annotations.*;
import io.micronaut.http.annotation.Delete;

interface StockMapper {
    @Update({"UPDATE t_stock SET qty = qty - #{n}", "WHERE id = #{id} AND qty >= #{n}"})
    int deduct(long id, int n);

    @Select("SELECT * FROM t_stock ORDER BY ${col}")
    List<Stock> page(String col);

    @Delete("/stock/{id}")
    void remove(long id);

    @UpdateProvider(type = StockSql.class, method = "reset")
    int reset(long id);
}
`
	f := java.ExtractJava("StockMapper.java", []byte(src))
	type view struct{ id, sql, unchecked string }
	var got []view
	for _, fr := range f.Fragments {
		got = append(got, view{fr.ID, fr.SQL, fr.Unchecked})
	}
	want := []view{
		{"deduct", "UPDATE t_stock SET qty = qty - ? WHERE id = ? AND qty >= ?", ""},
		{"page", "SELECT * FROM t_stock ORDER BY ?", ""},
		{"reset", "", "SQL built at run time: @UpdateProvider builds the statement in Java"},
	}
	if len(got) != len(want) {
		t.Fatalf("fragments %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("fragment %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if d := f.Fragments[1].Dollar; len(d) != 1 || d[0].Expr != "col" {
		t.Errorf("page: dollars %+v, want ${col}", d)
	}
}

func TestProviderType(t *testing.T) {
	for _, tc := range []struct {
		a    java.Annotation
		want string
	}{
		{java.Annotation{Args: map[string]string{"type": "SqlProviderAdapter.class", "method": "update"}}, "SqlProviderAdapter"},
		{java.Annotation{Args: map[string]string{"value": "org.mybatis.dynamic.sql.util.SqlProviderAdapter.class"}}, "SqlProviderAdapter"},
		{java.Annotation{Args: map[string]string{"value": "SqlProviderAdapter.class"}, Bare: true}, ""}, // no type = or value =
		{java.Annotation{Args: map[string]string{"type": "PROVIDER"}}, ""},
	} {
		if got := providerType(tc.a); got != tc.want {
			t.Errorf("providerType(%v) = %q, want %q", tc.a.Args, got, tc.want)
		}
	}
}
