package java

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParams reads the parameter lists of an interface's methods: names,
// last type names without type arguments, annotations.
func TestParams(t *testing.T) {
	src := `package shop;

import org.apache.ibatis.annotations.Param;

interface StockMapper {
    int addStock(@Param("id") long id, final Map<String, List<Integer>> m, @Param(value = "delta") java.lang.Integer delta);
    int none();
    String NAME = "x";
}
`
	x := readJavaFile("StockMapper.java", []byte(src))
	s := Syntax{x}
	var got []string
	for _, m := range s.Members(s.Types()[0]) {
		view := m.Name + ":"
		for _, p := range s.Params(m) {
			view += " " + p.Type + " " + p.Name
			for _, a := range p.Annotations {
				view += " @" + a.Name + "=" + a.Args["value"]
			}
		}
		got = append(got, view)
	}
	want := []string{
		"addStock: long id @org.apache.ibatis.annotations.Param=id Map m Integer delta @org.apache.ibatis.annotations.Param=delta",
		"none:",
		"NAME:",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("params (-want +got):\n%s", d)
	}
	if s.Params(s.Members(s.Types()[0])[2]) != nil {
		t.Error("a field has parameters")
	}
}
