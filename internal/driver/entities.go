package driver

import (
	"path/filepath"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/source"
)

// javaEntities reads the MyBatis-Plus entity classes of the Java sources
// before any of them is extracted: a write in one file takes its table and
// columns from the @TableName/@TableField of a class in another. Only
// files naming one of those annotations are lexed (source.JavaEntities).
func javaEntities(paths []string, sch *schema.Schema, tx *texts) *source.EntityIndex {
	var java []string
	for _, p := range paths {
		if strings.EqualFold(filepath.Ext(p), ".java") {
			java = append(java, p)
		}
	}
	if len(java) == 0 {
		return nil
	}
	found := make([][]*source.Entity, len(java))
	forEach(len(java), noState, func(_ struct{}, i int) {
		if src, err := tx.keep(java[i]); err == nil {
			found[i] = source.JavaEntities(java[i], src)
		}
	})
	var all []*source.Entity
	for _, es := range found {
		all = append(all, es...)
	}
	return source.NewEntityIndex(all, func(name string) bool { return sch.Table(name) != nil })
}
