package rules

import (
	"fmt"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
)

// The fixes of the schema rules name the table and columns of the finding:
// DDL the user can run, in the shape `guard plan` writes.

func fixAddCheck(t *schema.Table, col string) string {
	return fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s CHECK (%s >= 0) — validates every row and copies the table "+
		"(writes blocked): one statement in its own migration; `guard plan` writes it", q(t.Name), q(schema.GuardName("chk", t.Name, col, "nonneg")), q(col))
}

func fixNotNull(t *schema.Table, c *schema.Column) string {
	typ := c.Type
	if c.Unsigned {
		typ += " UNSIGNED"
	}
	return fmt.Sprintf("UPDATE %[1]s SET %[2]s = 0 WHERE %[2]s IS NULL; then ALTER TABLE %[1]s MODIFY %[2]s %[3]s NOT NULL DEFAULT 0 (keep the column's full type)",
		q(t.Name), q(c.Name), strings.ToUpper(typ))
}

func fixAddUnique(t *schema.Table, cols []string) string {
	qs := make([]string, len(cols))
	for i, c := range cols {
		qs[i] = q(c)
	}
	name := schema.GuardName(append([]string{"uk", t.Name}, cols...)...)
	return fmt.Sprintf("ALTER TABLE %s ADD UNIQUE INDEX %s (%s), ALGORITHM=INPLACE, LOCK=NONE — remove duplicates first: the build fails with 1062 if any exist",
		q(t.Name), q(name), strings.Join(qs, ", "))
}

func fixAddVersion(t *schema.Table, vc string) string {
	return fmt.Sprintf("ALTER TABLE %s ADD COLUMN %s BIGINT UNSIGNED NOT NULL DEFAULT 0, ALGORITHM=INSTANT; then bump it in every UPDATE "+
		"(%[2]s = %[2]s + 1) and compare it in read-modify-write updates (WHERE … AND %[2]s = ?)", q(t.Name), q(vc))
}

func fixVersionColumn(t *schema.Table, vc string) string {
	return fmt.Sprintf("UPDATE %[1]s SET %[2]s = 0 WHERE %[2]s IS NULL; then ALTER TABLE %[1]s MODIFY %[2]s BIGINT UNSIGNED NOT NULL DEFAULT 0", q(t.Name), q(vc))
}

func fixEngine(t *schema.Table) string {
	return fmt.Sprintf("ALTER TABLE %s ENGINE=InnoDB — rebuilds the table: its own migration, in a quiet window", q(t.Name))
}

func fixPrimaryKey(t *schema.Table) string {
	return fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (<a NOT NULL unique column>), or ADD COLUMN id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST — rebuilds the table: its own migration", q(t.Name))
}

func fixEnforce(t *schema.Table, checks []*schema.Check) string {
	var parts []string
	for _, c := range checks {
		parts = append(parts, fmt.Sprintf("ALTER TABLE %s ALTER CHECK %s ENFORCED", q(t.Name), q(c.Name)))
	}
	return strings.Join(parts, "; ") + " — validates every row: its own migration"
}

func q(name string) string { return schema.QuoteIdent(name) }
