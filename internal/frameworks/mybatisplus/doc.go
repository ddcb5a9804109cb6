// Package mybatisplus reads what MyBatis-Plus needs of a Java project's
// declarations: the entity classes (@TableName, @TableField, @TableId,
// @Version) whose tables and columns the Java reader renders the entity
// writes and update wrappers of other files with, and which files may
// write through them. It reads the Java reader's declarations view
// (java.Declarations), not its tokens.
package mybatisplus
