package java

import (
	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/stmt"
)

// File is what the Java extractor found in one file: what every reader
// finds, and what the file declares that other files of the run link to.
type File struct {
	*hostcode.File
	// ServiceCalls are the calls of the file that may reach a generated
	// write through one service method (see stmt.MapperCall.Via), and Types
	// the classes that declare such methods or implement interfaces; the
	// lint driver joins the two across the files of a run.
	ServiceCalls []stmt.MapperCall
	Types        []JavaType
	// Frameworks holds what the framework readers of declarations found
	// in the file, by framework (see Framework.Declarations).
	Frameworks map[string]any
	// UsesEntities reports that the extraction asked the run's entity
	// classes (ExtractJavaWith's index) about a class: a MyBatis-Plus
	// entity write or update wrapper, whose table and columns they give.
	UsesEntities bool
}
