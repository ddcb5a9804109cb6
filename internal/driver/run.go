package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/source"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// Config says what guard lint checks.
type Config struct {
	// Paths to walk; empty means the policy's [lint] paths.
	Paths []string
	// SchemaPath, when set, names the schema: a migrations folder, one dump
	// file or a folder of dumps.
	SchemaPath string
	Policy     *policy.Policy
	Rules      []*lint.Rule
	// Schema, when set, is the schema to use: the migrations below Paths
	// are still linted but not replayed, and SchemaPath is ignored (guard
	// plan infers with the schema it plans for).
	Schema *schema.Schema
	// Learn, when set and the policy infers, learns vocabulary from the
	// code before the rules run (rules.Learn).
	Learn *lint.Learner
	// Baseline, when set, hides the findings it records (see Baseline);
	// Result.Baseline says what it hid and which entries no longer occur.
	Baseline *lint.Baseline
	// Changes, when set, keeps only the findings on what changed (see
	// Changes); the baseline applies first, to every finding.
	Changes *Changes
}

// InputError is bad input that stops a run (exit 2): a missing path, an
// unreadable file.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// Run lints the files below cfg.Paths offline.
func Run(cfg Config) (*lint.Result, error) {
	var queryRules, otherRules []*lint.Rule
	for _, r := range cfg.Rules {
		switch {
		case r.Live:
		case r.Kind == lint.KindQuery:
			queryRules = append(queryRules, r)
			otherRules = append(otherRules, r) // once more for the migrations' statements
		default:
			otherRules = append(otherRules, r)
		}
	}
	l, err := load(cfg, queryRules)
	if err != nil {
		return nil, err
	}
	pol, sch, col, migs, in := l.pol, l.sch, l.col, l.migs, l.in
	// The first pass ran every file's query rules with the policy as written
	// and dropped its syntax trees. A file whose rules asked about a column
	// the inference decides differently, or about a clause a caller may set,
	// is read and linted again, with all that is now known.
	results := l.results
	changed := l.base.Changed(pol.Inferred)
	mayVary := clauseMayVary(results)
	parallel(len(results), func(p *sqlparse.Parser, i int) {
		r := &results[i]
		if r.err != nil || !(r.asked.Any(changed) || r.askedClause(mayVary)) {
			return
		}
		again := parseSource(p, in.sources[i], nil, sch, l.hosts, l.jpa, newFileLint(queryRules, pol, sch, mayVary))
		r.findings, r.err = again.findings, again.err
	})
	// Java calls of generated mapper methods are judged with the mapper
	// XML of every file read and the vocabulary inferred from all of them.
	// A call of a service method that wraps a generated call is judged as
	// that call, with the service classes of every file indexed.
	mappers, wrappers := newWriteIndex(results), newWrapperIndex(results)
	for i := range results {
		if r := &results[i]; r.err == nil && r.file != nil {
			l.jpa.resolveCalls(r.file)
			if calls := wrappers.resolveCalls(r.file); len(calls) > 0 {
				r.lintCalls(queryRules, pol, sch, mappers, calls)
			}
		}
	}
	stmtCount, found := 0, len(col.findings)
	for _, r := range results {
		found += len(r.findings)
	}
	col.findings = slices.Grow(col.findings, found-len(col.findings))
	for _, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		col.addFile(r.file, r.anchors)
		col.findings = append(col.findings, r.findings...)
		stmtCount += r.statements
	}

	// Schema and migration rules see the whole schema and every migration;
	// query rules see the migrations' statements here (GQ009 reports the ones
	// that do not parse).
	for _, r := range otherRules {
		pass := lint.NewPass(r, pol, sch, nil, migs, nil, col.add)
		if err := r.Run(pass); err != nil {
			return nil, fmt.Errorf("rule %s: %w", r.Code, err)
		}
	}
	res := col.result(pol, cfg.Rules)
	explainInferred(res.Findings, pol, sch)
	res.Findings = underRoots(res.Findings, l.paths, l.given)
	if cfg.Baseline != nil {
		var o lint.BaselineOutcome
		res.Findings, o = cfg.Baseline.Filter(res.Findings)
		res.Baseline = &o
	}
	if cfg.Changes != nil {
		res.Findings = cfg.Changes.filter(res.Findings, cfg.Rules, migs, l.given, sch)
	}
	countSeverities(res)
	res.Summary.Files = len(in.sources) + len(migs)
	res.Summary.Statements = stmtCount
	for _, m := range migs {
		res.Summary.Statements += len(m.Statements) + m.Data
	}
	l.given.countFiles(&res.Summary, migs)
	res.Summary.Tables = len(sch.Tables)
	for _, p := range in.otherEngines {
		res.OtherEngines = append(res.OtherEngines, lint.DisplayPath(p))
	}
	for _, p := range in.templates {
		res.Templates = append(res.Templates, lint.DisplayPath(p))
	}
	for _, p := range in.flyway {
		res.Flyway = append(res.Flyway, lint.DisplayPath(p))
	}
	return res, nil
}

// loaded is what a run read before any rule ran: the walked files, the
// migrations, the schema, every query source parsed and observed, and the
// policy with the vocabulary inferred from them.
type loaded struct {
	// base is the policy as written, pol the one with the inferred vocabulary.
	base    *policy.Policy
	pol     *policy.Policy
	paths   []string
	in      *inputs
	col     *collector
	migs    []*lint.Migration
	sch     *schema.Schema
	defs    *schema.Schema // the definitions the inference read (see inferenceSchema)
	given   *givenSchema   // the --schema files, nil without --schema
	results []fileResult
	obs     []lint.Observation
	// hosts are the entity classes and model types of the sources, for
	// ORM writes; jpa the JPA entities and Spring Data repositories.
	hosts hostTypes
	jpa   *JPAIndex
}

// load walks cfg's paths, replays the migrations (or reads --schema), and
// parses every query source on a pool of workers with one parser each,
// observing the statements for the vocabulary inference, which it then runs.
// With queryRules, each file's rules run right after it is parsed, with the
// policy as written, recording what they ask of it (see Run).
func load(cfg Config, queryRules []*lint.Rule) (*loaded, error) {
	pol := cfg.Policy
	if pol == nil {
		pol = policy.Default()
	}
	// Paths named on the command line must exist; of the policy's [lint]
	// paths the missing ones are skipped (a project without a migrations
	// folder), as long as one exists.
	paths, required := cfg.Paths, true
	if len(paths) == 0 {
		paths, required = pol.Lint.Paths, false
		if !anyExists(paths) {
			return nil, &InputError{Msg: fmt.Sprintf("none of the [lint] paths %q exists", paths)}
		}
	}
	in, err := walk(paths, pol.Lint.Exclude, required)
	if err != nil {
		return nil, &InputError{Msg: err.Error()}
	}
	var given *givenSchema
	if cfg.SchemaPath != "" {
		if given, err = loadSchema(cfg.SchemaPath); err != nil {
			return nil, &InputError{Msg: err.Error()}
		}
		in.dropSources(given.real)
	}
	col := &collector{}
	if err := given.addSuppressions(col, in.migrationDirs); err != nil {
		return nil, &InputError{Msg: err.Error()}
	}

	// Migrations: the schema (unless --schema names another) and the GM rules.
	migs, err := readMigrations(in.migrationDirs, col)
	if err != nil {
		return nil, err
	}
	var ddl []schema.DDL
	for _, m := range migs {
		ddl = append(ddl, toDDL(m.Statements)...)
	}
	var sch *schema.Schema
	var replay []*schema.ReplayError
	switch {
	case cfg.Schema != nil:
		sch = cfg.Schema
	case given != nil:
		sch, replay = given.Schema, given.Replay
	default:
		sch, replay = schema.FromDDL(ddl)
	}
	for _, r := range replay {
		col.replay = append(col.replay, lint.Finding{
			Code: "GQ009", File: lint.DisplayPath(r.File), Line: r.Line, Column: max(r.Col, 1), EndLine: r.Line,
			Message: "schema not fully replayed: " + r.Msg,
		})
	}

	hosts := hostTypes{ents: javaEntities(in.sources, sch), models: readGoModels(in.sources, sch)}
	results := make([]fileResult, len(in.sources))
	learner := cfg.Learn
	if !pol.Infers() {
		learner = nil
	}
	lintFile := func(p *sqlparse.Parser, i int, f *source.File, jpa *JPAIndex) {
		var fl *fileLint
		var asked *policy.Asked
		if queryRules != nil {
			fl, asked = recordingLint(queryRules, pol, sch)
		}
		results[i] = parseExtracted(p, f, learner, sch, jpa, fl)
		results[i].asked = asked
		results[i].stmts = nil
	}
	bySize := largestFirst(in.sources)
	parallel(len(in.sources), func(p *sqlparse.Parser, k int) {
		i := bySize[k]
		f, err := extract(in.sources[i], hosts)
		if err != nil {
			results[i] = fileResult{err: &InputError{Msg: err.Error()}}
			return
		}
		lintFile(p, i, f, nil)
	})
	// A repository's JPQL names entities that other files declare: the
	// files holding JPQL are parsed again once every entity is known.
	files := make([]*source.File, len(results))
	var again []int
	for i, r := range results {
		files[i] = r.file
		if r.err == nil && r.file.JPA.HasJPQL() {
			again = append(again, i)
		}
	}
	jpa := newJPAIndex(files)
	if len(again) > 0 {
		parallel(len(again), func(p *sqlparse.Parser, k int) {
			lintFile(p, again[k], files[again[k]], jpa)
		})
	}
	base := pol
	var obs []lint.Observation
	defs := sch
	if learner != nil {
		for _, r := range results {
			obs = append(obs, r.observations...)
		}
		defs = inferenceSchema(sch, results)
		pol = pol.WithInferred(learner.Infer(obs, defs, pol))
	}
	return &loaded{base: base, pol: pol, paths: paths, in: in, col: col, migs: migs, sch: sch, defs: defs, given: given, results: results, obs: obs, hosts: hosts, jpa: jpa}, nil
}

// Vocabulary is what Infer learned about a project.
type Vocabulary struct {
	// Observations are the facts the code showed, for inferring again
	// against another schema (a live target's).
	Observations []lint.Observation
	// Policy is the policy the run used, with Inferred set when the policy infers.
	Policy *policy.Policy
	Schema *schema.Schema
	// Definitions are the tables the inference read what columns are from:
	// Schema, or, when it has none, the CREATE TABLEs of the run's .sql
	// query sources (a dump under sql/). They are not the schema.
	Definitions *schema.Schema
	// Files and Statements count the query sources and their statements read.
	Files, Statements int
}

// Infer reads the project below cfg.Paths as Run does and returns the
// schema and the policy with its inferred vocabulary, without running any
// rule: guard init writes it out, guard plan plans with it, so that lint,
// plan and init agree on what a column is.
func Infer(cfg Config) (*Vocabulary, error) {
	l, err := load(cfg, nil)
	if err != nil {
		return nil, err
	}
	v := &Vocabulary{Policy: l.pol, Schema: l.sch, Definitions: l.defs, Files: len(l.results), Observations: l.obs}
	for _, r := range l.results {
		if r.err != nil {
			return nil, r.err
		}
		v.Statements += r.statements
	}
	return v, nil
}

func anyExists(paths []string) bool {
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}

// fileResult is what linting one query source gave.
type fileResult struct {
	file         *source.File
	stmts        []*lint.Statement
	anchors      anchors
	statements   int
	observations []lint.Observation
	findings     []lint.Finding
	err          error
	// asked and clauses record what the first run of the rules asked the
	// policy and Pass.ClauseMayVary.
	asked   *policy.Asked
	clauses []clauseQuery
	// mapperStmts are the generated mapper write statements of an XML
	// file, kept past the first pass for the Java calls that end in them.
	mapperStmts []*lint.Statement
	// tables are the CREATE TABLEs of a .sql query source, kept for the
	// inference of a run without a schema (see inferenceSchema).
	tables []schema.DDL
}

// clauseQuery is one question a rule asked Pass.ClauseMayVary.
type clauseQuery struct {
	fr       *source.Fragment
	property string
}

// askedClause reports whether a question the first run asked about a
// caller-supplied clause is answered yes now that every caller is known.
func (res *fileResult) askedClause(mayVary func(*source.Fragment, string) bool) bool {
	for _, q := range res.clauses {
		if mayVary(q.fr, q.property) {
			return true
		}
	}
	return false
}

// clauseMayVary answers Pass.ClauseMayVary from the Example clause setters
// of every Java file read: a generated ${orderByClause} may vary when some
// caller sets it from a non-constant on the statement's Example class, or
// on an Example guard cannot name.
func clauseMayVary(results []fileResult) func(*source.Fragment, string) bool {
	var open []source.ClauseSet
	for _, r := range results {
		if r.file == nil {
			continue
		}
		for _, cs := range r.file.ClauseSets {
			if !cs.Constant {
				open = append(open, cs)
			}
		}
	}
	return func(fr *source.Fragment, property string) bool {
		example := fr.ParameterType[strings.LastIndexByte(fr.ParameterType, '.')+1:]
		for _, cs := range open {
			if cs.Property == property && (cs.Example == "" || example == "" || cs.Example == example) {
				return true
			}
		}
		return false
	}
}

// hostTypes are the types of the whole run that an ORM write in one file
// is read against: MyBatis-Plus entity classes and GORM model types.
type hostTypes struct {
	ents   *source.EntityIndex
	models *source.GoModels
}

// extract runs the extractor that fits the file's extension.
func extract(p string, hosts hostTypes) (*source.File, error) {
	src, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("read %s: %v", p, err)
	}
	name := lint.DisplayPath(p)
	switch strings.ToLower(filepath.Ext(p)) {
	case ".go":
		f := source.ExtractGoWith(name, src, hosts.models)
		if f.NeedsPackage {
			if others := goPackageFiles(p); len(others) > 0 {
				f = source.ExtractGoPackageWith(name, src, others, hosts.models)
			}
		}
		return f, nil
	case ".java":
		return source.ExtractJavaWith(name, src, hosts.ents), nil
	case ".xml":
		return source.ExtractXML(name, src), nil
	default:
		return source.ExtractSQL(name, src), nil
	}
}
