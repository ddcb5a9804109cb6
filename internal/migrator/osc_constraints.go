package migrator

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
)

// pt-online-schema-change creates its copy of the table from SHOW CREATE
// TABLE with every CONSTRAINT name changed, so that it does not collide
// with the original's while both tables exist: `x` becomes `_x`, `_x`
// becomes `__x`, `__x` becomes `x` (percona-toolkit 3.x), cut to 64
// characters. The copy keeps those names after the swap, so each run moved
// a CHECK constraint one step along (chk_x, _chk_x, __chk_x, chk_x), and a
// later migration naming it (the down file guard plan wrote: ALTER TABLE t
// DROP CONSTRAINT chk_x) failed half-way with error 1091 and left the
// version dirty.
//
// MariaDB keeps CHECK constraint names per table (two tables of a database
// may each have a chk_x), so the copy may carry the original names while
// the original table still does: guard hands the tool a plugin that,
// right after the copy is created and before the migration's own ALTER
// runs on it, drops the renamed CHECK constraints of the empty copy and
// adds them back under their original names. On an empty table that costs
// nothing, the migration's ALTER sees the names the file was written
// against, and the swapped-in table has the names the original had.
// (Renaming after the swap would be a table copy blocking writes: MariaDB
// has no RENAME CONSTRAINT, and ADD CHECK needs ALGORITHM=COPY.)
//
// MySQL 8 keeps CHECK constraint names unique per database: the copy
// cannot carry a name the original table holds, and after the swap the
// only rename is DROP CHECK plus ADD CHECK, a blocking copy of the whole
// table (MySQL 8.0 has no RENAME CONSTRAINT either, and validating a new
// CHECK needs ALGORITHM=COPY). guard refuses there, before anything runs,
// a table with CHECK constraints (oscRefusal), rather than leave their
// names changed.

// checkNamesPerTable reports whether srv keeps CHECK constraint names per
// table (MariaDB), rather than unique per database (MySQL 8.0.16 on).
func checkNamesPerTable(srv schema.Server) bool { return srv.Flavor == schema.FlavorMariaDB }

// tableCheck is a table CHECK constraint as SHOW CREATE TABLE prints it.
type tableCheck struct {
	Name string
	// Def is the rest of its line: CHECK (`qty` >= 0).
	Def string
}

// checkLineRE is a table constraint line of SHOW CREATE TABLE that holds a
// CHECK: the lines the tool renames (a column's own CHECK, printed in its
// column's line without CONSTRAINT, keeps its name).
var checkLineRE = regexp.MustCompile("(?m)^\\s*CONSTRAINT `((?:[^`]|``)+)` (CHECK .*?),?$")

// tableChecks reads the table CHECK constraints of table from SHOW CREATE
// TABLE, the text the tool copies.
func tableChecks(ctx context.Context, db *sql.DB, table string) ([]tableCheck, error) {
	var name, create string
	if err := db.QueryRowContext(ctx, "SHOW CREATE TABLE "+quote(table)).Scan(&name, &create); err != nil {
		return nil, fmt.Errorf("show create table %s: %w", table, err)
	}
	var out []tableCheck
	for _, m := range checkLineRE.FindAllStringSubmatch(create, -1) {
		out = append(out, tableCheck{Name: strings.ReplaceAll(m[1], "``", "`"), Def: m[2]})
	}
	return out, nil
}

// ptOSCConstraintName is the name the tool gives constraint name in its
// copy of the table.
func ptOSCConstraintName(name string) string {
	if strings.HasPrefix(name, "__") {
		name = name[2:]
	} else {
		name = "_" + name
	}
	if r := []rune(name); len(r) > schema.MaxIdentLen {
		name = string(r[:schema.MaxIdentLen])
	}
	return name
}

// tableCheckNames lists the names of checks.
func tableCheckNames(checks []tableCheck) []string {
	out := make([]string, len(checks))
	for i, c := range checks {
		out[i] = c.Name
	}
	return out
}

// checkRestore is the ALTER TABLE specification that gives checks their
// names back on the tool's copy: every renamed one dropped, then added
// under its own name, in the original order.
func checkRestore(checks []tableCheck) string {
	var drops, adds []string
	for _, c := range checks {
		drops = append(drops, "DROP CONSTRAINT "+quote(ptOSCConstraintName(c.Name)))
		adds = append(adds, "ADD CONSTRAINT "+quote(c.Name)+" "+c.Def)
	}
	return strings.Join(append(drops, adds...), ", ")
}

// checkNamesKept is the line the plugin prints once it gave the names back.
const checkNamesKept = "Kept the names of the CHECK constraints OK."

// checkNamesPlugin is a pt-online-schema-change plugin (--plugin) that
// runs ALTER TABLE <the copy> spec on the empty copy, before the
// migration's own ALTER.
func checkNamesPlugin(spec string) []byte {
	perlString := "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(spec) + "'"
	return []byte(`package pt_online_schema_change_plugin;
# Written by guard migrate: gives the CHECK constraints of the tool's copy
# of the table the names they have on the original.
use strict;
sub new {
   my ($class, %args) = @_;
   return bless { %args }, $class;
}
sub before_alter_new_table {
   my ($self, %args) = @_;
   my $sql = "ALTER TABLE $args{new_tbl}->{name} " . ` + perlString + `;
   $self->{cxn}->dbh()->do($sql);
   print "` + checkNamesKept + `\n";
}
1;
`)
}

// checkNameRefusal is why the tool cannot alter a table with the CHECK
// constraints checks on srv; empty when it can.
func checkNameRefusal(srv schema.Server, checks []tableCheck) string {
	if len(checks) == 0 || checkNamesPerTable(srv) {
		return ""
	}
	names := tableCheckNames(checks)
	return fmt.Sprintf("the table has CHECK constraints (%s) and %s keeps their names unique per database: the tool's copy of the table "+
		"would carry them renamed (%s) after the swap, and naming them back copies the whole table (ADD CHECK needs ALGORITHM=COPY)",
		strings.Join(names, ", "), srv, ptOSCConstraintName(names[0]))
}
