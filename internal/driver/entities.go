package driver

import (
	"path/filepath"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/schema"
)

// javaEntities reads the MyBatis-Plus entity classes of the Java sources
// before any of them is extracted: a write in one file takes its table and
// columns from the @TableName/@TableField of a class in another. Only
// files naming one of those annotations are lexed (java.JavaEntities).
func javaEntities(paths []string, sch *schema.Schema, tx *texts) *java.EntityIndex {
	var javaFiles []string
	for _, p := range paths {
		if strings.EqualFold(filepath.Ext(p), ".java") {
			javaFiles = append(javaFiles, p)
		}
	}
	if len(javaFiles) == 0 {
		return nil
	}
	found := make([][]*java.Entity, len(javaFiles))
	forEach(len(javaFiles), noState, func(_ struct{}, i int) {
		if src, err := tx.keep(javaFiles[i]); err == nil {
			found[i] = java.JavaEntities(javaFiles[i], src)
		}
	})
	var all []*java.Entity
	for _, es := range found {
		all = append(all, es...)
	}
	return java.NewEntityIndex(all, func(name string) bool { return sch.Table(name) != nil })
}
