package main

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/codegen"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/target"
	"github.com/guard-sql/guard/templates"
)

func genCommand() *cli.Command {
	return &cli.Command{
		Name:  "gen",
		Usage: "generate DAO code that deducts with a guarded UPDATE, a Redis lock and a version CAS",
		Description: `guard gen dao writes the DAO of an existing table; guard gen table scaffolds
a new guarded table (migration and DAO); guard gen templates writes the
templates for customisation; guard gen alerts writes the Prometheus alert
rules and the Grafana dashboard of the metrics --metrics prometheus adds.`,
		Subcommands:     []*cli.Command{genDAOCommand(), genTableCommand(), genTemplatesCommand(), genAlertsCommand()},
		HideHelpCommand: true,
	}
}

func genDAOCommand() *cli.Command {
	return &cli.Command{
		Name:      "dao",
		Usage:     "write the DAO of a table, read from a live database or from migrations",
		ArgsUsage: " ",
		Description: `Writes self-contained Go (standard library, sqlx, go-redis v9) into --out:
<table>_dao.go with the row struct, Get, Insert, UpdateCAS, Deduct<Counter>
(one guarded UPDATE), Deduct<Counter>Locked (Redis lock, read, version CAS,
jittered retries) and Transition<State>; and the guard_*.go files every
package of generated DAOs shares (errors, options, metrics, lock); with
--metrics prometheus also guard_prometheus.go, whose NewPrometheusMetrics(reg)
exports the guard_* metrics that guard gen alerts watches. Counters,
states and the version column come from the policy; the lock defaults from
its [lock] section, the type name from [gen] strip_prefix.

The table needs a single-column integer primary key and a NOT NULL integer
version column. Existing .go files are replaced only when guard generated them.

Examples:
   guard gen dao --table t_inventory --schema migrations --out internal/inventorydao
   guard gen dao --table t_inventory --dsn 'app:secret@tcp(db:3306)/shop' --out dao --package dao
   guard gen dao --table t_inventory --schema migrations --out internal/inventorydao --metrics prometheus`,
		Flags: append(textOnlyFlags.flags(),
			&cli.StringFlag{Name: "table", Usage: "the table", Required: true},
			&cli.StringFlag{Name: "dsn", Usage: "read the table from this live database (default $" + target.EnvDSN + " when --schema is not given)"},
			connectTimeoutFlag(),
			&cli.StringFlag{Name: "schema", Usage: "read the table from a migrations folder, one dump file or a folder of dumps"},
			&cli.StringFlag{Name: "out", Usage: "output folder", Required: true},
			&cli.StringFlag{Name: "package", Usage: "Go package name (default: the base name of --out)"},
			&cli.StringFlag{Name: "templates", Usage: "folder of customised templates (see guard gen templates)"},
			metricsFlag(),
		),
		Action: runGenDAO,
	}
}

func runGenDAO(c *cli.Context) error {
	if c.Args().Present() {
		return inputErrf("gen dao takes no arguments (got %q)", c.Args().Slice())
	}
	pol, err := loadPolicy(c)
	if err != nil {
		return err
	}
	pkg, err := packageName(c)
	if err != nil {
		return err
	}
	tmpl, err := loadTemplates(c)
	if err != nil {
		return err
	}
	metrics, err := metricsBackend(c)
	if err != nil {
		return err
	}
	table, err := readTable(c)
	if err != nil {
		return err
	}
	data, err := codegen.NewData(table, codegen.Options{Package: pkg, Policy: pol, Metrics: metrics})
	if err != nil {
		return inputErr(err)
	}
	files, err := tmpl.Render(data)
	if err != nil {
		return inputErr(err)
	}
	return writeFiles(c, c.String("out"), files)
}

// readTable reads --table from --schema, else from --dsn or $GUARD_DSN.
func readTable(c *cli.Context) (*schema.Table, error) {
	name := c.String("table")
	dsn := c.String("dsn")
	if c.IsSet("schema") && dsn != "" {
		return nil, inputErrf("give --dsn or --schema, not both")
	}
	if path := c.String("schema"); path != "" {
		s, err := loadSchemaPath(path)
		if err != nil {
			return nil, err
		}
		return tableOf(s, name, path)
	}
	tg, red, err := oneTarget(dsn, os.Getenv(target.EnvDSN))
	if errors.Is(err, target.ErrNoTarget) {
		return nil, inputErrf("no schema: give --schema DIR or --dsn DSN (or set %s)", target.EnvDSN)
	}
	if err != nil {
		return nil, inputErr(err)
	}
	if err := setConnectTimeout(c, tg); err != nil {
		return nil, err
	}
	s, err := liveSchema(c.Context, tg, red.Writer(c.App.ErrWriter))
	if err != nil {
		return nil, errors.New(red.Redact(fmt.Sprintf("read %s: %v", tg.Name(), err)))
	}
	return tableOf(s, name, tg.Name())
}

func liveSchema(ctx context.Context, tg *target.Target, log io.Writer) (*schema.Schema, error) {
	db, err := tg.Connect(ctx, target.ConnectOptions{Log: log})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	s, _, err := schema.FromInformationSchema(ctx, db, tg.Database())
	return s, err
}

// loadSchemaPath replays a migrations folder, a dump file or a folder of
// dumps; a statement that does not replay is an input error at its place.
func loadSchemaPath(path string) (*schema.Schema, error) {
	l, err := schema.Load(path)
	if err != nil {
		return nil, inputErrf("--schema: %v", err)
	}
	if len(l.Replay) > 0 {
		return nil, inputErr(l.Replay[0])
	}
	return l.Schema, nil
}

func tableOf(s *schema.Schema, name, where string) (*schema.Table, error) {
	t := s.Table(name)
	if t == nil {
		var names []string
		for _, t := range s.Sorted() {
			names = append(names, t.Name)
		}
		return nil, inputErrf("no table %s in %s (tables: %s)", name, where, strings.Join(names, ", "))
	}
	return t, nil
}

// packageName is --package, else the base name of --out.
func packageName(c *cli.Context) (string, error) {
	if p := c.String("package"); p != "" {
		return p, nil
	}
	abs, err := filepath.Abs(c.String("out"))
	if err != nil {
		return "", inputErr(err)
	}
	base := strings.ToLower(filepath.Base(abs))
	if !token.IsIdentifier(base) {
		return "", inputErrf("--out %s is no Go package name: give --package", c.String("out"))
	}
	return base, nil
}

func loadTemplates(c *cli.Context) (*codegen.Templates, error) {
	dir := c.String("templates")
	if dir == "" {
		return codegen.DefaultTemplates(), nil
	}
	t, err := codegen.LoadTemplates(dir)
	if err != nil {
		return nil, inputErr(err)
	}
	return t, nil
}

// writeFiles writes files into dir and names each on stdout.
func writeFiles(c *cli.Context, dir string, files map[string][]byte) error {
	if err := codegen.Write(dir, files); err != nil {
		if errors.Is(err, codegen.ErrHandWritten) {
			return inputErr(err)
		}
		return err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(c.App.Writer, "wrote %s\n", filepath.Join(dir, n))
	}
	return nil
}

func genTableCommand() *cli.Command {
	return &cli.Command{
		Name:      "table",
		Usage:     "scaffold a new guarded table: its migration and its DAO",
		ArgsUsage: "NAME",
		Description: `Writes the next golang-migrate version into --migrations:
NNNNNN_create_NAME.up.sql creates an InnoDB table with a BIGINT UNSIGNED
AUTO_INCREMENT primary key id, a VARCHAR(64) NOT NULL column with a UNIQUE index
per --key, a BIGINT NOT NULL DEFAULT 0 column with CHECK (c >= 0) per
--counter, a VARCHAR(32) NOT NULL column per --state, and the version column
(BIGINT UNSIGNED NOT NULL DEFAULT 0); .down.sql drops it. Then writes the DAO of
that table into --out, as guard gen dao would.

Examples:
   guard gen table t_ticket --counter seats --key ticket_no --state status
   guard gen table t_wallet --counter balance --key request_id --out internal/walletdao
   guard gen table t_wallet --counter balance --metrics prometheus`,
		Flags: append(textOnlyFlags.flags(),
			&cli.StringSliceFlag{Name: "counter", Usage: "counter column (repeatable)"},
			&cli.StringSliceFlag{Name: "key", Usage: "business key column, UNIQUE (repeatable)"},
			&cli.StringSliceFlag{Name: "state", Usage: "state machine column (repeatable)"},
			&cli.StringFlag{Name: "migrations", Value: "migrations", Usage: "migrations folder"},
			&cli.StringFlag{Name: "out", Usage: "DAO output folder (default: <type>dao, e.g. ticketdao)"},
			&cli.StringFlag{Name: "package", Usage: "Go package name (default: the base name of --out)"},
			&cli.StringFlag{Name: "templates", Usage: "folder of customised templates (see guard gen templates)"},
			metricsFlag(),
		),
		// Flags may follow NAME (guard gen table t_ticket --counter seats),
		// which urfave/cli does not parse: runGenTable parses them itself.
		SkipFlagParsing: true,
		HideHelpCommand: true,
		Action:          runGenTable,
	}
}

func runGenTable(c *cli.Context) error {
	if asksHelp(c.Args().Slice()) {
		return cli.ShowCommandHelp(c.Lineage()[1], c.Command.Name)
	}
	set, args, err := trailingFlags(c, c.Args().Slice(), collectArgs)
	if err != nil {
		return err
	}
	c = cli.NewContext(c.App, set, c)
	if len(args) != 1 {
		return inputErrf("gen table takes one argument, the table name (got %d)", len(args))
	}
	pol, err := loadPolicy(c)
	if err != nil {
		return err
	}
	metrics, err := metricsBackend(c)
	if err != nil {
		return err
	}
	spec := codegen.TableSpec{
		Name:          args[0],
		Counters:      c.StringSlice("counter"),
		Keys:          c.StringSlice("key"),
		States:        c.StringSlice("state"),
		VersionColumn: pol.VersionColumn(),
	}
	mig, err := codegen.NewMigration(spec)
	if err != nil {
		return inputErr(err)
	}
	tmpl, err := loadTemplates(c)
	if err != nil {
		return err
	}
	dir := c.String("migrations")
	migFiles, table, err := renderTableMigration(tmpl, mig, spec.Name, dir)
	if err != nil {
		return err
	}
	out, daoFiles, err := renderTableDAO(c, tmpl, table, spec, pol, metrics)
	if err != nil {
		return err
	}
	// Both sets are rendered before anything is written: a template error
	// leaves no half scaffold behind.
	for name := range migFiles {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return inputErrf("%s already exists", filepath.Join(dir, name))
		}
	}
	if err := writeFiles(c, dir, migFiles); err != nil {
		return err
	}
	if err := writeFiles(c, out, daoFiles); err != nil {
		return err
	}
	for _, note := range codegen.PolicyNotes(spec, pol) {
		fmt.Fprintf(c.App.ErrWriter, "guard: note: %s\n", note)
	}
	return nil
}

// asksHelp reports whether args ask for the help. gen table parses its own
// flags, so urfave/cli does not see a --help among them.
func asksHelp(args []string) bool {
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			return true
		}
	}
	return false
}

// renderTableMigration renders the next migration of dir, which creates
// the table mig describes, and reads the table back from it: the DAO is
// generated from the table as the migration will create it. A table that
// dir's migrations create already is refused.
func renderTableMigration(tmpl *codegen.Templates, mig *codegen.Migration, name, dir string) (map[string][]byte, *schema.Table, error) {
	version, err := codegen.NextMigrationVersion(dir)
	if err != nil {
		return nil, nil, inputErr(err)
	}
	if existing, err := schema.ListMigrations(dir); err == nil && len(existing) > 0 {
		if s, err := loadSchemaPath(dir); err == nil && s.Table(name) != nil {
			return nil, nil, inputErrf("table %s already exists in %s", name, dir)
		}
	}
	files, err := tmpl.RenderMigration(mig, version)
	if err != nil {
		return nil, nil, inputErr(err)
	}
	upName, _ := codegen.MigrationFiles(version, name)
	table, err := codegen.TableFromMigration(upName, files[upName], name)
	if err != nil {
		return nil, nil, inputErr(err)
	}
	return files, table, nil
}

// renderTableDAO renders the DAO of the new table into its folder, --out,
// else <type>dao. Its counters and states are those of the scaffold's
// flags, not the policy's heuristics.
func renderTableDAO(c *cli.Context, tmpl *codegen.Templates, table *schema.Table, spec codegen.TableSpec, pol *policy.Policy, metrics string) (string, map[string][]byte, error) {
	typeName := codegen.TypeName(spec.Name, pol.Gen.StripPrefix)
	out := c.String("out")
	if out == "" {
		out = strings.ToLower(typeName) + "dao"
		if err := c.Set("out", out); err != nil {
			return "", nil, err
		}
	}
	pkg, err := packageName(c)
	if err != nil {
		return "", nil, err
	}
	data, err := codegen.NewData(table, codegen.Options{Package: pkg, Policy: pol,
		Counters: nonNil(spec.Counters), States: nonNil(spec.States), Metrics: metrics})
	if err != nil {
		return "", nil, inputErr(err)
	}
	files, err := tmpl.Render(data)
	if err != nil {
		return "", nil, inputErr(err)
	}
	return out, files, nil
}

// nonNil makes an absent list an empty one: the scaffold's flags, not the
// policy's heuristics, say which columns are counters and states.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func genTemplatesCommand() *cli.Command {
	return &cli.Command{
		Name:      "templates",
		Usage:     "write the embedded templates for customisation",
		ArgsUsage: " ",
		Description: `Writes the templates guard gen uses into --out. Edit them and pass
--templates DIR to guard gen dao or guard gen table; a template missing from
DIR keeps its embedded version. Existing files are kept unless --force.

Example:
   guard gen templates --out gen/templates`,
		Flags: append(textOnlyFlags.flags(),
			&cli.StringFlag{Name: "out", Usage: "output folder", Required: true},
			&cli.BoolFlag{Name: "force", Usage: "overwrite existing files"},
		),
		Action: runGenTemplates,
	}
}

func runGenTemplates(c *cli.Context) error {
	if c.Args().Present() {
		return inputErrf("gen templates takes no arguments (got %q)", c.Args().Slice())
	}
	dir := c.String("out")
	files := map[string][]byte{}
	for _, name := range codegen.TemplateNames() {
		b, err := fs.ReadFile(templates.FS, name)
		if err != nil {
			return err
		}
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil && !c.Bool("force") {
			return inputErrf("%s exists (use --force to overwrite)", filepath.Join(dir, name))
		}
		files[name] = b
	}
	return writeFiles(c, dir, files)
}
