package driver

import (
	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/schema"
)

// javaEntityIndex indexes the MyBatis-Plus entity classes the Java sources
// declare (found[i] those of sources[i], read by mybatisplus.Entities as the
// extraction passed): a write in one file takes its table and columns from
// the @TableName/@TableField of a class in another. Nil without Java
// sources.
func javaEntityIndex(sources []string, found [][]*java.Entity, sch *schema.Schema) *java.EntityIndex {
	var all []*java.Entity
	anyJava := false
	for i, es := range found {
		anyJava = anyJava || isJava(sources[i])
		all = append(all, es...)
	}
	if !anyJava {
		return nil
	}
	return java.NewEntityIndex(all, func(name string) bool { return sch.Table(name) != nil })
}
