package driver

import (
	"fmt"
	"slices"

	"github.com/guard-sql/guard/internal/frameworks/jpa"
	"github.com/guard-sql/guard/internal/frameworks/mybatisplus"
	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/hostcode/golang"
	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// A lint run is a fixed list of phases (phases, below), run in order by
// run.through. Each phase reads the fields of the run that the phases it
// requires wrote, and writes its own; nothing else passes between them.
// Every file is read from disk once (texts): the phases that need a text
// after the one that reads it say so when they read it.
//
//	walk     the files below the paths: migrations folders, query sources
//	schema   the migrations read and replayed (or --schema) into the schema model
//	recall   with a cache (Config.Cache), every source hashed and the run's keys made
//	         (cache.go): a result kept under the run's key is the run's, and only
//	         report runs after it; else the host code's judgement, when kept, and
//	         each .sql source's first one are read back by extract
//	index    the model types (GORM, goctl) of every Go source; the registered
//	         frameworks' linkers (internal/frameworks)
//	extract  every query source extracted, parsed, observed for the inference, and
//	         judged by the query rules with the policy as written; the frameworks
//	         and the MyBatis-Plus entity classes read each text as it passes, and a
//	         Java file whose writes need those classes is extracted once all are read
//	jpql     the Spring Data JPQL of the sources rendered with every entity known
//	copies   the entity writes whose record the code copied from a request object
//	         (BeanUtils.copyProperties, ModelMapper, MapStruct) given a set of each
//	         property the source's class declares in any file
//	infer    the vocabulary inferred from every observation
//	sign     the placeholders of each file that some call of the run binds to a
//	         negated amount (c = c + ? with -n: a decrement), a mapper XML's
//	         #{delta} read with its interface method's parameters
//	rejudge  the files whose rules asked what the inference answered otherwise,
//	         and those sign marked, judged again
//	link     the entity writes of host code joined to the statements they end in
//	         (mapper XML, goctl models, wrapper services, JPA repositories, the
//	         statements the frameworks render), and judged
//	remember with a cache, the final judgement of the host code kept, before judge
//	         hands every finding to the collector
//	judge    the schema and migration rules, on the whole schema and every migration
//	report   suppressions, deduplication, order, baseline, changed lines, summary;
//	         with a cache, the result before the baseline kept
//
// guard lint runs every phase; guard init and guard plan (Infer) stop after
// infer.
var phases = []phase{
	{"walk", nil, (*run).walk},
	{"schema", []string{"walk"}, (*run).schema},
	{"recall", []string{"schema"}, (*run).recall},
	{"index", []string{"recall"}, (*run).index},
	{"extract", []string{"index"}, (*run).extract},
	{"jpql", []string{"extract"}, (*run).jpql},
	{"copies", []string{"jpql"}, (*run).copies},
	{"infer", []string{"copies"}, (*run).infer},
	{"sign", []string{"extract"}, (*run).sign},
	{"rejudge", []string{"infer", "sign"}, (*run).rejudge},
	{"link", []string{"rejudge"}, (*run).link},
	{"remember", []string{"link"}, (*run).remember},
	{"judge", []string{"schema", "infer"}, (*run).judge},
	{"report", []string{"link", "judge"}, (*run).report},
}

// phase is one step of a lint run: requires names the phases whose
// results it reads, which must come before it.
type phase struct {
	name     string
	requires []string
	do       func(*run) error
}

// run is one lint run: its configuration and what each phase produced.
type run struct {
	cfg Config
	// judging is set for guard lint: the extract phase judges each file
	// with queryRules, and the phases after infer run.
	judging                bool
	queryRules, otherRules []*lint.Rule

	// walk
	base  *policy.Policy // the policy as written
	paths []string
	in    *inputs
	tx    *texts
	// schema
	given *givenSchema // the --schema files, nil without --schema
	col   *collector
	migs  []*lint.Migration
	sch   *schema.Schema
	// watch names the tables the migrations change, whose uses by the
	// code the extraction records for the migration rules.
	watch lint.Watch
	// models are the uses of the watched tables by the GORM models.
	models *lint.Usage
	// index: the registered frameworks' linkers, which read every file of
	// their languages.
	linkers []linker
	// packageDirs are the folders of goctl models, whose Go texts are
	// kept through the extraction for the file that needs its package.
	packageDirs map[string]bool
	// extract, jpql: one result per source; the JPA entities and Spring
	// Data repositories of every file.
	learner *lint.Learner
	results []fileResult
	jpa     *jpa.Index
	// sign: the results some of whose placeholders a caller negates.
	signed map[int]bool
	// writes indexes the generated mapper statements of every result;
	// made by the first phase that needs it (writeIndex).
	writes *writeIndex
	// infer: pol is base with the inferred vocabulary; defs the
	// definitions the inference read (see inferenceSchema).
	pol  *policy.Policy
	obs  []lint.Observation
	defs *schema.Schema
	// report
	res *lint.Result
	// mem is the run's side of the cache; nil without one.
	mem *memory
}

func newRun(cfg Config, judging bool) *run {
	r := &run{cfg: cfg, judging: judging, tx: newTexts()}
	if !judging {
		return r
	}
	for _, rule := range cfg.Rules {
		switch {
		case rule.Live:
		case rule.Kind == lint.KindQuery:
			r.queryRules = append(r.queryRules, rule)
			r.otherRules = append(r.otherRules, rule) // once more for the migrations' statements
		default:
			r.otherRules = append(r.otherRules, rule)
		}
	}
	return r
}

// through runs the phases in order up to and including last ("" for all).
// Once recall has read the run's result back, only report runs.
func (r *run) through(last string) error {
	for _, ph := range phases {
		if r.mem != nil && r.mem.recalled != nil && ph.name != "report" {
			continue
		}
		if err := ph.do(r); err != nil {
			return err
		}
		if ph.name == last {
			return nil
		}
	}
	return nil
}

// walk lists the files below the paths. Paths named on the command line
// must exist; of the policy's [lint] paths the missing ones are skipped (a
// project without a migrations folder), as long as one exists.
func (r *run) walk() error {
	r.base = r.cfg.Policy
	if r.base == nil {
		r.base = policy.Default()
	}
	r.pol = r.base
	paths, required := r.cfg.Paths, true
	if len(paths) == 0 {
		paths, required = r.base.Lint.Paths, false
		if !anyExists(paths) {
			return &InputError{Msg: fmt.Sprintf("none of the [lint] paths %q exists", paths)}
		}
	}
	in, err := walk(paths, r.base.Lint.Exclude, required)
	if err != nil {
		return &InputError{Msg: err.Error()}
	}
	r.paths, r.in = paths, in
	return nil
}

// schema reads the migrations, for the GM rules and, unless --schema
// names another, the schema, which it replays.
func (r *run) schema() error {
	var err error
	if r.mem != nil {
		r.tx.onRead = r.mem.noteSchemaRead
	}
	if r.cfg.SchemaPath != "" {
		if r.given, err = loadSchema(r.cfg.SchemaPath, r.tx); err != nil {
			return &InputError{Msg: err.Error()}
		}
		r.in.dropSources(r.given.real)
	}
	r.col = &collector{}
	if err := r.given.addSuppressions(r.col, r.in.migrationDirs, r.tx); err != nil {
		return &InputError{Msg: err.Error()}
	}
	if r.migs, err = readMigrations(r.in.migrationDirs, r.col, r.tx); err != nil {
		return err
	}
	if err := r.cfg.Changes.migrationsBefore(r.migs); err != nil {
		return err
	}
	r.tx.forget() // a --schema file the walk does not read again
	if r.judging {
		r.watch = watchedTables(r.migs)
	}
	var ddl []schema.DDL
	for _, m := range r.migs {
		ddl = append(ddl, toDDL(m.Statements)...)
	}
	var replay []*schema.ReplayError
	switch {
	case r.cfg.Schema != nil:
		r.sch = r.cfg.Schema
	case r.given != nil:
		r.sch, replay = r.given.Schema, r.given.Replay
	default:
		r.sch, replay = schema.FromDDL(ddl)
	}
	for _, e := range replay {
		r.col.replay = append(r.col.replay, lint.Finding{
			Code: "GQ009", File: lint.DisplayPath(e.File), Line: e.Line, Column: max(e.Col, 1), EndLine: e.Line,
			Message: "schema not fully replayed: " + e.Msg,
		})
	}
	return nil
}

// index notes the folders whose Go files one of them may be read with
// (goPackageDirs), and makes the frameworks' linkers of the run.
func (r *run) index() error {
	r.packageDirs = goPackageDirs(r.in.sources)
	if r.judging {
		r.linkers = newLinkers()
	}
	return nil
}

// lintFile parses, observes and, when judging, judges the extracted file
// f as the i-th result.
func (r *run) lintFile(p *sqlparse.Parser, i int, f *hostcode.File, jf *java.File, jpaIx *jpa.Index) {
	var fl *fileLint
	var asked *policy.Asked
	if r.judging {
		fl, asked = recordingLint(r.queryRules, r.base, r.sch)
		fl.uses = newUsageFold(r.watch, r.sch)
	}
	r.results[i] = parseExtracted(p, f, jf, r.learner, r.sch, jpaIx, fl)
	r.results[i].asked = asked
}

// extract reads every query source once and extracts it on a pool of
// workers with one parser each, the largest first, and parses, observes
// and judges it right away (lintFile). With the policy as written, the
// rules record what they ask of it (see rejudge). The frameworks index
// each text as it passes, and the MyBatis-Plus entity classes of the Java
// sources are gathered: a Java file whose writes take their table and
// columns from an entity class another file declares is extracted once
// every file is read, its text kept until then (mybatisplus.MayUseEntities; the
// rest never wait, and the run holds only those texts).
func (r *run) extract() error {
	r.results = make([]fileResult, len(r.in.sources))
	r.learner = r.cfg.Learn
	if !r.base.Infers() {
		r.learner = nil
	}
	entities := make([][]*java.Entity, len(r.in.sources))
	models := make([]*golang.GoFileModels, len(r.in.sources))
	waiting := make([][]byte, len(r.in.sources)) // the texts that wait for every entity class and model type
	bySize := largestFirst(r.in.sources)
	linkedAt := r.linkedIndex()
	parallel(len(r.in.sources), func(p *sqlparse.Parser, k int) {
		i := bySize[k]
		if r.recallFile(i, linkedAt) {
			return
		}
		path := r.in.sources[i]
		src, err := r.read(path)
		if err != nil {
			r.results[i] = fileResult{err: &InputError{Msg: err.Error()}}
			return
		}
		name := lint.DisplayPath(path)
		r.indexFrameworks(path, name, src)
		switch {
		case isJava(path):
			entities[i] = mybatisplus.Entities(path, src)
			if mybatisplus.MayUseEntities(src) {
				waiting[i] = src
				return
			}
		case isGo(path):
			if golang.GoModelsWorthReading(src) {
				models[i] = golang.ReadGoModels(name, src)
			}
			if golang.MayUseModels(src) {
				waiting[i] = src
				return
			}
		}
		if f, jf, waits := extract(path, name, src, hostTypes{}, r.tx); waits {
			waiting[i] = src
		} else {
			r.lintFile(p, i, f, jf, nil)
			r.keepFirst(i, src)
		}
	})
	hosts := hostTypes{ents: javaEntityIndex(r.in.sources, entities, r.sch), models: goModelIndex(models, r.sch)}
	r.models = modelUsage(hosts.models, r.watch)
	if r.mem != nil && r.mem.linked != nil {
		r.models = r.mem.linked.Models // the host code's, which no file of this run read
	}
	var again []int
	for i, src := range waiting {
		if src != nil {
			again = append(again, i)
		}
	}
	parallel(len(again), func(p *sqlparse.Parser, k int) {
		i := again[k]
		path := r.in.sources[i]
		f, jf, _ := extract(path, lint.DisplayPath(path), waiting[i], hosts, r.tx)
		waiting[i] = nil
		r.lintFile(p, i, f, jf, nil)
	})
	r.tx.forget()
	return nil
}

// jpql parses again, once every entity is known, the files whose
// repositories' JPQL names entities other files declare.
func (r *run) jpql() error {
	files := r.javaFiles()
	var again []int
	for i, fr := range r.results {
		if fr.err == nil && fr.java != nil && jpa.Of(fr.java).HasJPQL() {
			again = append(again, i)
		}
	}
	r.jpa = jpa.NewIndex(files)
	if len(again) > 0 {
		parallel(len(again), func(p *sqlparse.Parser, k int) {
			r.lintFile(p, again[k], r.results[again[k]].file, files[again[k]], r.jpa)
		})
	}
	return nil
}

// infer turns every observation of the run into the policy's inferred
// vocabulary, when the policy infers.
func (r *run) infer() error {
	r.defs = r.sch
	if r.learner == nil {
		return r.mem.inferred(r.pol)
	}
	for _, fr := range r.results {
		r.obs = append(r.obs, fr.observations...)
	}
	mapped := observeMapperCalls(r.results, r.writeIndex)
	r.obs = append(r.obs, mapped...)
	if r.mem != nil {
		r.mem.mapped = mapped
		if r.mem.linked != nil {
			r.obs = append(r.obs, r.mem.linked.Observations...) // the host code's, recalled
		}
	}
	r.defs = inferenceSchema(r.sch, r.results)
	r.pol = r.base.WithInferred(r.learner.Infer(r.obs, r.defs, r.base))
	return r.mem.inferred(r.pol)
}

// rejudge judges again, with all that is now known, the files whose rules
// asked about a column the inference decides differently, or about a
// clause a caller may set: the extract phase dropped their syntax trees,
// and the files' extracted statements are parsed again.
func (r *run) rejudge() error {
	changed := r.base.Changed(r.pol.Inferred)
	dollars := newDollarSources(r.results)
	parallel(len(r.results), func(p *sqlparse.Parser, i int) {
		fr := &r.results[i]
		if fr.err != nil || fr.recalled == recalledFinal ||
			!(fr.asked.Any(changed) || fr.asked.AnyStateByCode(r.pol.Inferred) || fr.askedDollars(dollars) || r.signed[i]) {
			return
		}
		f := fr.file
		if fr.recalled == recalledFirst {
			var err error
			if f, err = r.materialize(i); err != nil {
				fr.err = err
				return
			}
		}
		again := parseExtracted(p, f, fr.java, nil, r.sch, r.jpa, newFileLint(r.queryRules, r.pol, r.sch, dollars))
		fr.findings, fr.err = again.findings, again.err
	})
	return nil
}

// writeIndex returns the index of the generated mapper statements of every
// result, made once: the inference joins the calls of generated mappers to
// it, and link judges every entity write with it.
func (r *run) writeIndex() *writeIndex {
	if r.writes == nil {
		r.writes = newWriteIndex(r.results)
	}
	return r.writes
}

// link judges the entity writes of each file's host code with the mapper
// XML of every file read and the vocabulary inferred from all of them: a
// call of a service method that wraps a generated call is judged as that
// call, with the service classes of every file indexed.
func (r *run) link() error {
	mappers, wrappers := r.writeIndex(), newWrapperIndex(r.results)
	for _, st := range r.frameworkStatements() {
		mappers.add(st)
	}
	for i := range r.results {
		if fr := &r.results[i]; fr.err == nil && fr.file != nil && fr.recalled == live {
			r.jpa.ResolveCalls(fr.java)
			if calls := wrappers.resolveCalls(fr.file, fr.java); len(calls) > 0 {
				r.resolveCalls(calls)
				fr.lintCalls(r.queryRules, r.pol, r.sch, mappers, calls)
			}
		}
	}
	return nil
}

// judge gathers each file's findings and runs the schema and migration
// rules, which see the whole schema and every migration; the query rules
// see the migrations' statements here (GQ009 reports the ones that do not
// parse).
func (r *run) judge() error {
	found := len(r.col.findings)
	at := make([]int, len(r.results))
	for i, fr := range r.results {
		if fr.err != nil {
			return fr.err
		}
		r.col.addFile(fr.file, fr.anchors)
		at[i] = found
		found += len(fr.findings)
	}
	// Room besides for the findings of the rules that judge the run as a
	// whole and the collector's own: one more would copy every finding.
	// The files' findings are copied on every core.
	all := slices.Grow(r.col.findings, found-len(r.col.findings)+found/16+256)[:found]
	forEach(len(r.results), noState, func(_ struct{}, i int) {
		copy(all[at[i]:], r.results[i].findings)
	})
	r.col.findings = all
	usage := &lint.Usage{}
	usage.Merge(r.models)
	for _, fr := range r.results {
		usage.Merge(fr.uses)
	}
	for _, rule := range r.otherRules {
		pass := lint.NewPass(rule, r.pol, r.sch, nil, r.migs, nil, r.col.add)
		pass.Usage = usage
		pass.Sharding = r.cfg.Sharding
		if err := rule.Run(pass); err != nil {
			return fmt.Errorf("rule %s: %w", rule.Code, err)
		}
	}
	return nil
}

// report makes the result: suppressions, deduplication and order (the
// collector), the evidence of inferred columns, the paths asked for, the
// baseline and the changed lines, and the summary.
func (r *run) report() error {
	res := r.mem.result()
	if res == nil {
		res = r.collect()
		r.keepResult(res)
	} else if o := r.output(); o != nil {
		o.Keep(r.mem.runKey)
	}
	if r.cfg.Baseline != nil {
		var o lint.BaselineOutcome
		res.Findings, o = r.cfg.Baseline.Filter(res.Findings)
		res.Baseline = &o
	}
	if r.cfg.Changes != nil {
		res.Findings = r.cfg.Changes.filter(res.Findings, r.cfg.Rules, r.migs, r.given, r.sch)
	}
	countSeverities(res)
	r.res = res
	return nil
}

// collect makes the result before the baseline and the changed lines
// apply: what a cache keeps of a run.
func (r *run) collect() *lint.Result {
	res := r.col.result(r.pol, r.cfg.Rules)
	explainInferred(res.Findings, r.pol, r.sch)
	res.Findings = underRoots(res.Findings, r.paths, r.given)
	countSeverities(res)
	res.Summary.Files = len(r.in.sources) + len(r.migs)
	for _, fr := range r.results {
		res.Summary.Statements += fr.statements
	}
	for _, m := range r.migs {
		res.Summary.Statements += len(m.Statements) + m.Data
	}
	r.given.countFiles(&res.Summary, r.migs)
	res.Summary.Tables = len(r.sch.Tables)
	for _, p := range r.in.otherEngines {
		res.OtherEngines = append(res.OtherEngines, lint.DisplayPath(p))
	}
	for _, p := range r.in.templates {
		res.Templates = append(res.Templates, lint.DisplayPath(p))
	}
	for _, p := range r.in.flyway {
		res.Flyway = append(res.Flyway, lint.DisplayPath(p))
	}
	return res
}
