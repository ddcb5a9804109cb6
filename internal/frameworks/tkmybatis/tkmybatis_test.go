package tkmybatis

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/stmt"
)

// TestRender indexes a project's mapper, entity and base classes and
// checks the statements tk.mybatis would send and the calls it claims: the
// entity through a generic base interface, inherited fields, @Column,
// @Transient, static and transient fields, the default names, and the
// version compare of @Version.
func TestRender(t *testing.T) {
	files := map[string]string{
		"base/MyMapper.java": `package com.x.base;
import tk.mybatis.mapper.common.Mapper;
import tk.mybatis.mapper.common.MySqlMapper;
public interface MyMapper<T> extends Mapper<T>, MySqlMapper<T> {}`,
		"base/BaseEntity.java": `package com.x.base;
import javax.persistence.Id;
import javax.persistence.Column;
public class BaseEntity {
	@Id private Long id;
	@Column(name = "created_time") private Date createdTime;
	private transient String cache;
}`,
		"model/OmcCart.java": `package com.x.model;
import com.x.base.BaseEntity;
import javax.persistence.*;
import tk.mybatis.mapper.annotation.Version;
@Table(name = "pc_omc_cart")
public class OmcCart extends BaseEntity {
	private static final long serialVersionUID = 1L;
	@Column(name = "user_id") private Long userId;
	private Integer quantity;
	@Transient private Integer pageNum;
	@Version private Long version;
}`,
		"model/CartLine.java": `package com.x.model;
public class CartLine { private Long lineId; private Integer lineQty; }`,
		"mapper/OmcCartMapper.java": `package com.x.mapper;
import com.x.base.MyMapper;
import com.x.model.OmcCart;
public interface OmcCartMapper extends MyMapper<OmcCart> {
	int countChecked(Long userId);
}`,
		"mapper/CartLineMapper.java": `package com.x.mapper;
import com.x.model.CartLine;
public interface CartLineMapper extends tk.mybatis.mapper.common.Mapper<CartLine> {}`,
		"other/OmcCartMapper.java": `package com.x.other;
import com.x.model.OmcCart;
public interface OmcCartMapper extends tk.mybatis.mapper.common.Mapper<OmcCart> {}`,
		"mapper/PlainMapper.java": `package com.x.mapper;
import com.x.model.CartLine;
public interface PlainMapper { int updateByPrimaryKey(CartLine c); }`,
	}
	l := &linker{}
	for path, src := range files {
		l.Index(path, []byte(src))
	}
	got := map[string]string{}
	for _, fr := range l.Statements() {
		got[fr.Namespace+"#"+fr.ID] = fr.SQL
		if fr.Builder != builder || fr.Line < 1 || fr.File == "" {
			t.Errorf("%s#%s: builder %q at %s:%d", fr.Namespace, fr.ID, fr.Builder, fr.File, fr.Line)
		}
	}
	// The javax.persistence.* import leaves @Table and @Column simple:
	// they still count, as written without a package.
	for k := range got {
		if strings.HasPrefix(k, "com.x.other.") {
			delete(got, k) // the same statements again, for the second interface
		}
	}
	want := map[string]string{
		"com.x.mapper.OmcCartMapper#updateByPrimaryKey":          "UPDATE pc_omc_cart SET user_id = ?, quantity = ?, version = ?, created_time = ? WHERE id = ? AND version = ?",
		"com.x.mapper.OmcCartMapper#updateByPrimaryKeySelective": "UPDATE pc_omc_cart SET user_id = ?, quantity = ?, version = ?, created_time = ? WHERE id = ? AND version = ?",
		"com.x.mapper.OmcCartMapper#updateByExample":             "UPDATE pc_omc_cart SET user_id = ?, quantity = ?, version = ?, created_time = ?",
		"com.x.mapper.OmcCartMapper#updateByExampleSelective":    "UPDATE pc_omc_cart SET user_id = ?, quantity = ?, version = ?, created_time = ?",
		"com.x.mapper.OmcCartMapper#deleteByExample":             "DELETE FROM pc_omc_cart",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("statements (-want +got):\n%s", d)
	}

	c := stmt.MapperCall{Mapper: "com.x.mapper.OmcCartMapper", Method: "updateByPrimaryKeySelective", Entity: "OmcCart"}
	if !l.Resolve(&c) || c.Framework != Name || c.Table != "pc_omc_cart" || !c.VersionCAS || c.Column("createdTime") != "created_time" || c.Column("quantity") != "quantity" {
		t.Errorf("resolved call: %+v", c)
	}
	// A file importing com.x.mapper.* names the mapper simply: the two
	// interfaces so named map one table.
	simple := stmt.MapperCall{Mapper: "OmcCartMapper", Method: "updateByPrimaryKey"}
	if !l.Resolve(&simple) || simple.Table != "pc_omc_cart" {
		t.Errorf("simple name: %+v", simple)
	}
	plain := stmt.MapperCall{Mapper: "com.x.mapper.PlainMapper", Method: "updateByPrimaryKey"}
	if l.Resolve(&plain) {
		t.Errorf("a mapper that does not extend tk.mybatis is claimed: %+v", plain)
	}
	mp := stmt.MapperCall{Mapper: "com.x.mapper.OmcCartMapper", Method: "updateById", Framework: "MyBatis-Plus"}
	if l.Resolve(&mp) {
		t.Error("another framework's call is claimed")
	}
}
