package driver

// One source file's way through guard lint: extracted, parsed a part at a
// time, each part observed for the inference and judged by the rules that
// take one statement at a time, then the whole file judged by the others.

import (
	"fmt"
	"slices"
	"sync"

	"github.com/guard-sql/guard/internal/frameworks/jpa"
	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/hostcode/java"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// parseExtracted parses an extracted file and, with a learner, observes
// its statements for the inferred vocabulary; with fl, it lints them. The
// file's JPQL statements are rendered with the run's entities first. Each part of
// the statements is observed, judged by the rules that take one statement
// at a time and its uses recorded as soon as it is parsed, while its trees
// are in the cache, and then its row loads' trees are dropped
// (releaseRowLoads); the other rules judge the file's statements once all
// are parsed.
func parseExtracted(p *sqlparse.Parser, f *hostcode.File, jf *java.File, learner *lint.Learner, sch *schema.Schema, jpaIx *jpa.Index, fl *fileLint) fileResult {
	jpaIx.Render(jf)
	var fold observationFold
	emit := fold.add // one method value for the file, not one per statement
	stmts := parseFile(p, f, func(part []*lint.Statement) {
		if learner != nil {
			for _, st := range part {
				if st.Node != nil {
					learner.Observe(st, sch, emit)
				}
			}
		}
		if fl != nil {
			fl.run(part, true)
			fl.uses.add(part)
		}
		releaseRowLoads(part)
	})
	res := fileResult{file: f, java: jf, anchors: anchorsOf(f, stmts), statements: len(stmts), mapperStmts: mapperStatements(stmts)}
	if learner != nil && f.Lang == stmt.LangSQL && len(sch.Tables) == 0 {
		res.tables = createTables(stmts)
	}
	if learner != nil {
		observeCalls(f, &fold)
		res.observations = fold.out
	}
	if fl != nil {
		fl.run(stmts, false)
		res.findings, res.dollars, res.err = fl.kept.done(), fl.asked, fl.err
		res.uses = fl.uses.done()
		if res.err != nil {
			res.err = fmt.Errorf("rule %s on %s: %w", fl.failed, f.Path, res.err)
		}
	}
	return res
}

// fileLint is the query rules' run on one source file.
type fileLint struct {
	rules []*lint.Rule
	pol   *policy.Policy
	sch   *schema.Schema
	// setters and checked answer what the rules ask of a MyBatis ${…}
	// (see answerDollars); the first run records the questions in asked.
	setters func(*stmt.Fragment, string) []lint.Cause
	checked func(*stmt.Fragment, stmt.Dollar) bool
	asked   []dollarQuery
	kept    fileFindings
	add     func(lint.Finding)
	err     error
	failed  string // the code of the rule that returned err
	// uses records the file's uses of the tables the migrations change;
	// nil records none (a second judgement: the uses are the first's).
	uses *usageFold
}

// newFileLint returns the run of rules on one file with pol.
func newFileLint(rules []*lint.Rule, pol *policy.Policy, sch *schema.Schema, dollars *dollarSources) *fileLint {
	fl := &fileLint{rules: rules, pol: pol, sch: sch}
	fl.add = fl.kept.add // one method value for the file, not one per pass
	fl.setters, fl.checked = answerDollars(dollars, &fl.asked)
	return fl
}

// recordingLint is newFileLint with pol as written, recording the columns
// the rules ask it about and what they ask of a MyBatis ${…}, which is
// answered as if no caller were known until every Java file is (see
// dollarSources).
func recordingLint(rules []*lint.Rule, pol *policy.Policy, sch *schema.Schema) (*fileLint, *policy.Asked) {
	rec, asked := pol.Recording()
	return newFileLint(rules, rec, sch, nil), asked
}

// run runs on stmts the rules whose PerStatement is each; a nil fl runs
// nothing.
func (fl *fileLint) run(stmts []*lint.Statement, each bool) {
	if fl == nil {
		return
	}
	for _, r := range fl.rules {
		if r.PerStatement != each || fl.err != nil {
			continue
		}
		pass := lint.NewPass(r, fl.pol, fl.sch, stmts, nil, nil, fl.add)
		pass.ClauseSetters, pass.DollarChecked = fl.setters, fl.checked
		if err := r.Run(pass); err != nil {
			fl.err, fl.failed = err, r.Code
		}
	}
}

// fileFindings collects the findings of one file's rules. The findings of
// a run are kept until its end, so they are kept small: a message that
// repeats in the file (every unguarded decrement of one table reads alike)
// is kept once, and the file keeps a slice of exactly its findings. Fixes
// quote their statement and seldom repeat.
type fileFindings struct {
	out  []lint.Finding
	text map[string]string
}

func (k *fileFindings) add(f lint.Finding) {
	f.Message = k.intern(f.Message)
	if k.out == nil {
		if b, ok := findingBuffers.Get().(*[]lint.Finding); ok {
			k.out = (*b)[:0]
		}
	}
	k.out = append(k.out, f)
}

// findingBuffers holds the buffers files collected their findings in, for
// the next files: a file keeps a copy of its own length (done), and the
// buffer that grew to hold them is used again.
var findingBuffers sync.Pool

// intern returns the copy of s the file keeps.
func (k *fileFindings) intern(s string) string {
	if s == "" {
		return s
	}
	if kept, ok := k.text[s]; ok {
		return kept
	}
	if k.text == nil {
		k.text = map[string]string{}
	}
	k.text[s] = s
	return s
}

// done returns the findings in a slice of their own length.
func (k *fileFindings) done() []lint.Finding {
	if len(k.out) == 0 {
		return nil
	}
	out := slices.Clone(k.out)
	clear(k.out) // the buffer keeps no finding's strings alive
	b := k.out[:0]
	findingBuffers.Put(&b)
	k.out = nil
	return out
}
