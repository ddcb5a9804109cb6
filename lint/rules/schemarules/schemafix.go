package schemarules

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
)

// The fixes of the schema rules name the table and columns of the finding:
// DDL the user can run, in the shape `guard plan` writes.

// fixAddCheck adds the CHECK (col >= 0) `guard plan` writes.
func fixAddCheck(t *schema.Table, col string) string {
	return fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s CHECK (%s >= 0) — validates every row and copies the table "+
		"(writes blocked): one statement in its own migration; `guard plan` writes it", q(t.Name), q(schema.GuardName("chk", t.Name, col, "nonneg")), q(col))
}

// fixNotNull makes counter c NOT NULL as `guard plan` does: the column's
// full type (DECIMAL(12,2) UNSIGNED, not DECIMAL, which would round money),
// its own default, DEFAULT 0 when it has none.
func fixNotNull(t *schema.Table, c *schema.Column) string {
	def := "0"
	if c.Default != nil && !strings.EqualFold(*c.Default, "NULL") {
		def = *c.Default
	}
	return fmt.Sprintf("UPDATE %[1]s SET %[2]s = 0 WHERE %[2]s IS NULL; then ALTER TABLE %[1]s MODIFY %[2]s %[3]s NOT NULL DEFAULT %[4]s, "+
		"ALGORITHM=INPLACE, LOCK=NONE (MODIFY replaces the whole definition: restate its COMMENT%[5]s, if any)",
		q(t.Name), q(c.Name), c.SQLType(), def, charsetNote(c))
}

// charsetNote names what else a MODIFY of a string column must restate: the
// schema model does not record a column's character set and collation.
func charsetNote(c *schema.Column) string {
	switch c.Type {
	case "char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set":
		return " and CHARACTER SET/COLLATE"
	}
	return ""
}

// fixAddUnique adds the UNIQUE index on cols.
func fixAddUnique(t *schema.Table, cols []string) string {
	qs := make([]string, len(cols))
	for i, c := range cols {
		qs[i] = q(c)
	}
	name := schema.GuardName(append([]string{"uk", t.Name}, cols...)...)
	return fmt.Sprintf("ALTER TABLE %s ADD UNIQUE INDEX %s (%s), ALGORITHM=INPLACE, LOCK=NONE — remove duplicates first: the build fails with 1062 if any exist",
		q(t.Name), q(name), strings.Join(qs, ", "))
}

// fixAddVersion adds version column vc.
func fixAddVersion(t *schema.Table, vc string) string {
	return fmt.Sprintf("ALTER TABLE %s ADD COLUMN %s BIGINT UNSIGNED NOT NULL DEFAULT 0, ALGORITHM=INSTANT; then bump it in every UPDATE "+
		"(%[2]s = %[2]s + 1) and compare it in read-modify-write updates (WHERE … AND %[2]s = ?)", q(t.Name), q(vc))
}

// fixVersionColumn repairs version column c: an integer column keeps its
// type, anything else becomes BIGINT UNSIGNED; NULLs are set to 0 first and
// a default it has is kept.
func fixVersionColumn(t *schema.Table, c *schema.Column) string {
	typ, note := c.SQLType(), ""
	if !c.IsInteger() {
		typ = "BIGINT UNSIGNED"
		note = " — the type change rewrites every row (its own migration) and fails on values that are not numbers in strict mode"
	}
	def := "0"
	if c.Default != nil && !strings.EqualFold(*c.Default, "NULL") && c.IsInteger() {
		def = *c.Default
	}
	prefix := ""
	if c.Nullable {
		prefix = fmt.Sprintf("UPDATE %[1]s SET %[2]s = 0 WHERE %[2]s IS NULL; then ", q(t.Name), q(c.Name))
	}
	return fmt.Sprintf("%sALTER TABLE %s MODIFY %s %s NOT NULL DEFAULT %s%s", prefix, q(t.Name), q(c.Name), typ, def, note)
}

// fixEngine converts t to InnoDB.
func fixEngine(t *schema.Table) string {
	return fmt.Sprintf("ALTER TABLE %s ENGINE=InnoDB — rebuilds the table: its own migration, in a quiet window", q(t.Name))
}

// fixPrimaryKey gives t a primary key.
func fixPrimaryKey(t *schema.Table) string {
	return fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (<a NOT NULL unique column>), or ADD COLUMN id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST — rebuilds the table: its own migration", q(t.Name))
}

// fixEnforce turns the NOT ENFORCED checks of t on.
func fixEnforce(t *schema.Table, checks []*schema.Check) string {
	var parts []string
	for _, c := range checks {
		parts = append(parts, fmt.Sprintf("ALTER TABLE %s ALTER CHECK %s ENFORCED", q(t.Name), q(c.Name)))
	}
	return strings.Join(parts, "; ") + " — validates every row: its own migration"
}

// q quotes a name where SQL needs it.
func q(name string) string { return schema.QuoteIdent(name) }
