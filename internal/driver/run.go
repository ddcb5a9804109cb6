package driver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/hostcode/golang"
	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/hostcode/mybatisxml"
	"github.com/guard-sql/guard/internal/hostcode/sqlfile"
	"github.com/guard-sql/guard/internal/lintcache"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
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
	// Sharding, when set, names the tables a sharded database spreads over
	// shards (guard lint --vschema), for the schema rules.
	Sharding *lint.Sharding
	// Cache, when set, keeps what Run found for the next run, which reads
	// back what did not change instead of judging it again (see cache.go):
	// the result is the same with it as without. Infer does not use it, nor
	// a run given its Schema.
	Cache *lintcache.Cache
	// Output, with Cache and without Baseline or Changes, lets the caller
	// keep what it makes of the result (its report) under the run's key
	// and serve it again instead of the result (see Output), on a tree
	// large enough to keep its files' entries.
	Output Output
}

// Output is a caller's own entry of a run's result.
type Output interface {
	// Serve is called once the run's key is known, before the result kept
	// under it is read back: true when the caller has served what it keeps
	// under key, and Run then returns ErrServed and no result.
	Serve(key lintcache.Key) bool
	// Keep is called when the result Run returns is the one its key names:
	// read back whole, or judged by a run that read no file but those the
	// key covers, as they were hashed. The caller keeps what it makes of
	// the result under key, and the run leaves out the whole result, which
	// a run of another caller's output makes again from the files' entries.
	Keep(key lintcache.Key)
}

// ErrServed is Run's error when Config.Output served the run.
var ErrServed = errors.New("served from the cache")

// InputError is bad input that stops a run (exit 2): a missing path, an
// unreadable file.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// Run lints the files below cfg.Paths offline: every phase, in order.
func Run(cfg Config) (*lint.Result, error) {
	r := newRun(cfg, true)
	if cfg.Cache != nil && cfg.Schema == nil {
		r.mem = newMemory(cfg.Cache, true)
	}
	err := r.through("")
	if errors.Is(err, errRelink) {
		first := r
		r = newRun(cfg, true)
		r.mem = newMemory(cfg.Cache, false)
		r.mem.carry = first
		err = r.through("")
	}
	if err != nil {
		return nil, err
	}
	return r.res, nil
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
// rule: the phases up to "infer". guard init writes it out, guard plan
// plans with it, so that lint, plan and init agree on what a column is.
func Infer(cfg Config) (*Vocabulary, error) {
	r := newRun(cfg, false)
	if err := r.through("infer"); err != nil {
		return nil, err
	}
	v := &Vocabulary{Policy: r.pol, Schema: r.sch, Definitions: r.defs, Files: len(r.results), Observations: r.obs}
	for _, fr := range r.results {
		if fr.err != nil {
			return nil, fr.err
		}
		v.Statements += fr.statements
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
	file         *hostcode.File
	java         *java.File // the Java facts of a .java file, nil for any other
	anchors      anchors
	statements   int
	observations []lint.Observation
	findings     []lint.Finding
	err          error
	// asked and dollars record what the first run of the rules asked the
	// policy and about the values that reach a MyBatis ${…}.
	asked   *policy.Asked
	dollars []dollarQuery
	// mapperStmts are the generated mapper write statements of an XML
	// file, kept past the first pass for the Java calls that end in them.
	mapperStmts []*lint.Statement
	// tables are the CREATE TABLEs of a .sql query source, kept for the
	// inference of a run without a schema (see inferenceSchema).
	tables []schema.DDL
	// uses are what its statements use of the tables the migrations change.
	uses *lint.Usage
	// recalled says whether the result was read back from the cache, and
	// which judgement of the file it is.
	recalled recall
}

// hostTypes are the types of the whole run that an ORM write in one file
// is read against: MyBatis-Plus entity classes and GORM model types.
type hostTypes struct {
	ents   *java.EntityIndex
	models *golang.GoModels
}

// read returns the text of source p: kept for a Go file of a goctl
// model's folder, whose package another file may need (goPackageFiles),
// taken otherwise.
func (r *run) read(p string) ([]byte, error) {
	var src []byte
	var err error
	if isGo(p) && r.packageDirs[filepath.Dir(p)] {
		src, err = r.tx.keep(p)
	} else {
		src, err = r.tx.take(p)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %v", p, err)
	}
	return src, nil
}

func isJava(p string) bool { return strings.EqualFold(filepath.Ext(p), ".java") }

func isGo(p string) bool { return strings.EqualFold(filepath.Ext(p), ".go") }

// extract runs the extractor that fits the extension of source p, named
// name in findings, on its text src, with the run's entity classes and
// model types hosts (none in the zero value: a file's own only). A Go file
// that names what another file of its package declares is extracted again
// with those files. waits reports that a Java or Go extraction asked hosts
// about a class or a type: with none given, its result is not final.
func extract(p, name string, src []byte, hosts hostTypes, tx *texts) (f *hostcode.File, jf *java.File, waits bool) {
	switch {
	case isJava(p):
		jf = java.ExtractJavaWith(name, src, hosts.ents)
		return jf.File, jf, jf.UsesEntities
	case isGo(p):
		f = golang.ExtractGoWith(name, src, hosts.models)
		if f.NeedsPackage {
			if others := goPackageFiles(p, tx); len(others) > 0 {
				f = golang.ExtractGoPackageWith(name, src, others, hosts.models)
			}
		}
		return f, nil, f.UsesModels
	case strings.EqualFold(filepath.Ext(p), ".xml"):
		return mybatisxml.ExtractXML(name, src), nil, false
	}
	return sqlfile.ExtractSQL(name, src), nil, false
}
