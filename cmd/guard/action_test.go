package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/guard-sql/guard/internal/testtree"
)

// action is the part of action.yml the tests read.
type action struct {
	Inputs map[string]struct {
		Description string  `yaml:"description"`
		Default     *string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name             string            `yaml:"name"`
	ID               string            `yaml:"id"`
	If               string            `yaml:"if"`
	Uses             string            `yaml:"uses"`
	With             map[string]string `yaml:"with"`
	Shell            string            `yaml:"shell"`
	WorkingDirectory string            `yaml:"working-directory"`
	Env              map[string]string `yaml:"env"`
	Run              string            `yaml:"run"`
}

func readAction(t *testing.T) *action {
	t.Helper()
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a action
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return &a
}

// TestActionStructure: a composite action that sets up Go, runs guard lint
// with the documented inputs and uploads SARIF, its inputs reaching the
// scripts through the environment only.
func TestActionStructure(t *testing.T) {
	a := readAction(t)
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", a.Runs.Using)
	}
	for _, in := range []string{"paths", "config", "baseline", "new-from-rev", "fail-on", "summary", "comment", "github-token", "cache"} {
		if spec, ok := a.Inputs[in]; !ok || spec.Description == "" || spec.Default == nil {
			t.Errorf("input %q missing, or without description or default", in)
		}
	}
	if d := a.Inputs["fail-on"].Default; d == nil || *d != "error" {
		t.Errorf("fail-on defaults to %v, want error as guard does", d)
	}
	if d := a.Inputs["comment"].Default; d == nil || *d != "false" {
		t.Errorf("comment defaults to %v, want false: a comment is asked for", d)
	}
	if d := a.Inputs["github-token"].Default; d == nil || *d != "${{ github.token }}" {
		t.Errorf("github-token defaults to %v, want the job's token", d)
	}
	// The token reaches the one step that posts the comment, and no other.
	for _, s := range a.Runs.Steps {
		for k, v := range s.Env {
			if strings.Contains(v, "inputs.github-token") && (s.Name != "Comment on the pull request" || k != "GITHUB_TOKEN") {
				t.Errorf("step %q gets the token as %s", s.Name, k)
			}
		}
	}
	var uses []string
	for _, s := range a.Runs.Steps {
		if s.Uses != "" {
			uses = append(uses, s.Uses[:strings.IndexByte(s.Uses+"@", '@')])
			continue
		}
		if s.Shell != "bash" {
			t.Errorf("step %q: shell %q, want bash (a composite step must name one)", s.Name, s.Shell)
		}
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q pastes an expression into its script: inputs go through env", s.Name)
		}
	}
	if want := []string{"actions/setup-go", "actions/cache", "github/codeql-action/upload-sarif"}; !slices.Equal(uses, want) {
		t.Errorf("the action uses %v, want %v", uses, want)
	}
	// The cache is restored where the lint step points guard, keyed by the
	// guard that runs and the policy, before guard runs.
	for i, s := range a.Runs.Steps {
		if !strings.HasPrefix(s.Uses, "actions/cache@") {
			continue
		}
		if s.With["path"] != "${{ runner.temp }}/guard-cache" || !strings.Contains(s.With["key"], "github.action_ref") ||
			!strings.Contains(s.With["key"], "hashFiles(inputs.config") || !strings.Contains(s.With["restore-keys"], "github.action_ref") {
			t.Errorf("cache step %+v: want path runner.temp/guard-cache, keys with the action's ref and the policy's hash", s.With)
		}
		if i+1 >= len(a.Runs.Steps) || a.Runs.Steps[i+1].ID != "lint" || a.Runs.Steps[i+1].Env["GUARD_CACHE_DIR"] != s.With["path"] {
			t.Error("the cache step is not right before the lint step, or the lint step does not use its folder")
		}
	}
	for _, s := range a.Runs.Steps {
		if strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif") && !strings.Contains(s.With["sarif_file"], "steps.lint.outputs.sarif-file") {
			t.Errorf("upload-sarif uploads %q, not the report of the lint step", s.With["sarif_file"])
		}
	}
}

// runner plays GitHub's part for the run steps of a composite action: it
// evaluates the few expressions the action uses, keeps each step's outputs
// and the PATH additions, and runs each script as GitHub does (bash -e -o
// pipefail). Steps that use another action are left to the real runner.
type runner struct {
	t         *testing.T
	a         *action
	inputs    map[string]string
	workspace string
	temp      string
	path      []string
	outputs   map[string]map[string]string
	// summary is what the steps wrote to their GITHUB_STEP_SUMMARY, logs
	// what they printed.
	summary, logs string
}

// actionToken is github.token in the runner's expressions.
const actionToken = "ghs_ACTIONt0kenOFtheJOB0123456789"

var exprRE = regexp.MustCompile(`\$\{\{\s*([a-z_.-]+)\s*\}\}`)

func (r *runner) eval(s string) string {
	return exprRE.ReplaceAllStringFunc(s, func(m string) string {
		ref := exprRE.FindStringSubmatch(m)[1]
		parts := strings.SplitN(ref, ".", 4)
		switch {
		case ref == "github.action_path":
			abs, _ := filepath.Abs("../..")
			return abs
		case ref == "github.action_ref":
			return "test"
		case ref == "runner.temp":
			return r.temp
		case ref == "github.token":
			return actionToken
		case parts[0] == "inputs":
			if v, ok := r.inputs[parts[1]]; ok {
				return v
			}
			if d := r.a.Inputs[parts[1]].Default; d != nil {
				return r.eval(*d)
			}
			r.t.Fatalf("action.yml reads undeclared input %q", parts[1])
		case parts[0] == "steps" && len(parts) == 4 && parts[2] == "outputs":
			return r.outputs[parts[1]][parts[3]]
		}
		r.t.Fatalf("expression %q not known to the test runner", ref)
		return ""
	})
}

// run runs the action's run steps whose names satisfy pick, stopping at the
// first that fails, and returns the name of that step and its exit code.
func (r *runner) run(pick func(name string) bool) (string, int) {
	r.t.Helper()
	for _, s := range r.a.Runs.Steps {
		if s.Run == "" || !pick(s.Name) {
			continue
		}
		dir := r.workspace
		if s.WorkingDirectory != "" {
			dir = r.eval(s.WorkingDirectory)
		}
		script := filepath.Join(r.temp, "step.sh")
		if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
			r.t.Fatal(err)
		}
		out, pathFile, summary := filepath.Join(r.temp, "output"), filepath.Join(r.temp, "path"), filepath.Join(r.temp, "summary")
		for _, f := range []string{out, pathFile, summary} {
			if err := os.WriteFile(f, nil, 0o644); err != nil {
				r.t.Fatal(err)
			}
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GITHUB_OUTPUT="+out, "GITHUB_PATH="+pathFile, "GITHUB_STEP_SUMMARY="+summary, "GITHUB_WORKSPACE="+r.workspace,
			"PATH="+strings.Join(append(slices.Clone(r.path), os.Getenv("PATH")), string(os.PathListSeparator)))
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+r.eval(v))
		}
		logs, err := cmd.CombinedOutput()
		r.t.Logf("step %q:\n%s", s.Name, logs)
		r.logs += string(logs)
		r.collect(s.ID, out, pathFile)
		if b, err := os.ReadFile(summary); err == nil {
			r.summary += string(b)
		} else {
			r.t.Fatal(err)
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return s.Name, ee.ExitCode()
		} else if err != nil {
			r.t.Fatal(err)
		}
	}
	return "", 0
}

func (r *runner) collect(id, out, pathFile string) {
	for _, f := range []string{out, pathFile} {
		fh, err := os.Open(f)
		if err != nil {
			r.t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			if f == pathFile {
				r.path = append([]string{sc.Text()}, r.path...)
			} else if k, v, ok := strings.Cut(sc.Text(), "="); ok && id != "" {
				if r.outputs[id] == nil {
					r.outputs[id] = map[string]string{}
				}
				r.outputs[id][k] = v
			}
		}
		fh.Close()
	}
}

// sarifResults counts the results of a SARIF report and names their files.
func sarifResults(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(b, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("%s is not a SARIF report of one run: %v", path, err)
	}
	var files []string
	for _, res := range log.Runs[0].Results {
		files = append(files, res.Locations[0].PhysicalLocation.ArtifactLocation.URI)
	}
	return files
}

// TestActionRunSteps runs the action's own scripts against a copy of the
// example shop: guard is installed from this checkout, the report written,
// findings fail the last step only, and each input reaches guard.
func TestActionRunSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds guard")
	}
	ws := t.TempDir()
	testtree.Copy(t, "../../examples/shop", ws)
	r := &runner{t: t, a: readAction(t), inputs: map[string]string{}, workspace: ws, temp: t.TempDir(), outputs: map[string]map[string]string{}}
	all := func(string) bool { return true }
	afterInstall := func(name string) bool { return name != "Install guard" }

	step, code := r.run(all)
	if step != "Fail on findings" || code != 1 {
		t.Fatalf("findings: step %q exited %d, want the last step to fail with 1", step, code)
	}
	if r.outputs["lint"]["exit-code"] != "1" || len(sarifResults(t, filepath.Join(ws, "guard.sarif"))) < 15 {
		t.Errorf("outputs %v; want exit-code 1 and the shop's findings in guard.sarif", r.outputs["lint"])
	}
	md, err := os.ReadFile(r.outputs["lint"]["markdown-file"])
	if err != nil || !strings.HasPrefix(string(md), "### guard lint: ") || len(mdTable(t, string(md), "Findings, most severe first")) < 15 {
		t.Errorf("markdown-file %q: %v\n%s", r.outputs["lint"]["markdown-file"], err, md)
	}
	if r.summary != string(md) {
		t.Errorf("the job summary is not the markdown report:\n%s", r.summary)
	}
	if _, err := os.Stat(filepath.Join(r.temp, "guard-cache", "lint")); err != nil {
		t.Errorf("guard lint kept nothing in the folder the action caches: %v", err)
	}

	t.Run("paths and fail-on", func(t *testing.T) {
		r.t, r.inputs = t, map[string]string{"paths": "sql\n  internal/dao", "fail-on": "never", "sarif-file": "out.sarif"}
		if step, code := r.run(afterInstall); code != 0 {
			t.Fatalf("step %q exited %d", step, code)
		}
		files := sarifResults(t, filepath.Join(ws, "out.sarif"))
		for _, f := range files {
			if !strings.HasPrefix(f, "sql/") && !strings.HasPrefix(f, "internal/dao/") {
				t.Errorf("result in %s, outside the paths given", f)
			}
		}
		if len(files) == 0 {
			t.Error("no result for the paths given")
		}
	})
	t.Run("baseline and config", func(t *testing.T) {
		testtree.Write(t, ws, map[string]string{"ci/policies.toml": "[lint]\npaths = [\".\"]\n"})
		t.Chdir(ws)
		if _, stderr, code := guard(t, "lint", "--config", "ci/policies.toml", "--write-baseline", "ci/baseline.json", "."); code != 0 {
			t.Fatalf("write the baseline: exit %d %s", code, stderr)
		}
		r.t, r.inputs = t, map[string]string{"config": "ci/policies.toml", "baseline": "ci/baseline.json"}
		if step, code := r.run(afterInstall); code != 0 {
			t.Fatalf("step %q exited %d", step, code)
		}
		if files := sarifResults(t, filepath.Join(ws, "guard.sarif")); len(files) != 0 || r.outputs["lint"]["exit-code"] != "0" {
			t.Errorf("with the baseline: results in %v, exit code %s; want none and 0", files, r.outputs["lint"]["exit-code"])
		}
	})
	t.Run("summary and comment", func(t *testing.T) {
		testActionComment(t, r, afterInstall)
	})
	t.Run("no cache", func(t *testing.T) {
		cache := filepath.Join(r.temp, "guard-cache")
		os.RemoveAll(cache)
		r.t, r.inputs = t, map[string]string{"cache": "false", "fail-on": "never"}
		if step, code := r.run(afterInstall); code != 0 {
			t.Fatalf("step %q exited %d", step, code)
		}
		if _, err := os.Stat(cache); err == nil {
			t.Error("cache: false wrote the cache")
		}
	})
	t.Run("bad input", func(t *testing.T) {
		t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(ws))
		r.t, r.inputs = t, map[string]string{"new-from-rev": "origin/main"}
		if step, code := r.run(afterInstall); step != "Run guard lint" || code != 2 {
			t.Errorf("new-from-rev outside a git work tree: step %q exited %d, want the lint step to fail with 2", step, code)
		}
	})
}

// preCommitHook is one entry of .pre-commit-hooks.yaml.
type preCommitHook struct {
	ID            string   `yaml:"id"`
	Name          string   `yaml:"name"`
	Entry         string   `yaml:"entry"`
	Language      string   `yaml:"language"`
	Files         string   `yaml:"files"`
	PassFilenames *bool    `yaml:"pass_filenames"`
	Args          []string `yaml:"args"`
}

// TestPreCommitHook checks the hook's declaration and runs its entry as
// pre-commit would, on the files of the example shop that match.
func TestPreCommitHook(t *testing.T) {
	b, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []preCommitHook
	if err := yaml.Unmarshal(b, &hooks); err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 1 {
		t.Fatalf("%d hooks, want 1", len(hooks))
	}
	h := hooks[0]
	if h.ID != "guard-lint" || h.Language != "golang" || h.PassFilenames == nil || !*h.PassFilenames || h.Entry != "guard lint" {
		t.Errorf("hook %+v; want id guard-lint, language golang, entry guard lint, pass_filenames true", h)
	}
	files := regexp.MustCompile(h.Files)
	for name, want := range map[string]bool{"a.sql": true, "x/y.go": true, "A.java": true, "m.xml": true, "README.md": false, "policies.toml": false, "a.sql.bak": false} {
		if files.MatchString(name) != want {
			t.Errorf("files %q matches %s: %v, want %v", h.Files, name, !want, want)
		}
	}

	ws := t.TempDir()
	testtree.Copy(t, "../../examples/shop", ws)
	testtree.Write(t, ws, map[string]string{"pom.xml": "<project><modelVersion>4.0.0</modelVersion></project>\n", "README.md": "# shop\n"})
	t.Chdir(ws)
	var staged []string
	err = filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && files.MatchString(p) {
			staged = append(staged, filepath.ToSlash(p))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	entry := strings.Fields(h.Entry)
	if entry[0] != "guard" {
		t.Fatalf("entry %q does not run guard", h.Entry)
	}
	hook := func(args []string, files ...string) ([]string, int) {
		got, _, code := lintCodes(t, append(append(append(entry[2:], append(h.Args, args...)...), "--"), files...)...)
		return got, code
	}
	got, code := hook(nil, staged...)
	whole, _, _ := lintCodes(t, ".")
	if code != exitFindings || !slices.Equal(got, whole) {
		t.Errorf("every file: exit %d, findings %v; want 1 and those of the folder %v", code, got, whole)
	}
	// Without a migration among the files there is no schema: the rules
	// that need one are silent until args name it.
	got, code = hook(nil, "sql/admin.sql", "pom.xml")
	if code != exitFindings || !slices.Equal(got, []string{"GQ001@sql/admin.sql"}) {
		t.Errorf("two files: exit %d, findings %v", code, got)
	}
	// (--schema reports the schema's own findings too, as it does anywhere.)
	got, code = hook([]string{"--schema", "migrations"}, "sql/admin.sql", "pom.xml")
	got = slices.DeleteFunc(got, func(s string) bool { return strings.Contains(s, "@migrations/") })
	if code != exitFindings || !slices.Equal(got, []string{"GQ001@sql/admin.sql", "GQ004@sql/admin.sql"}) {
		t.Errorf("two files with args [--schema, migrations]: exit %d, findings %v", code, got)
	}
}

// testActionComment runs the action with comment: true against a local
// GitHub API: the first run posts the report, the second edits the same
// comment, with the job's token and without it in any log; a refusal is a
// warning that leaves the job to the findings; summary: false and comment:
// false write no markdown at all.
func testActionComment(t *testing.T, r *runner, steps func(string) bool) {
	ws := r.workspace
	t.Chdir(ws)
	g := newGitHubAPI(t)
	actionsEnv(t, g, prEvent)
	t.Setenv("GITHUB_TOKEN", "") // the action passes its input, not the job's environment
	r.t = t
	for run := 1; run <= 2; run++ {
		r.inputs, r.summary, r.logs = map[string]string{"comment": "true", "fail-on": "never"}, "", ""
		if step, code := r.run(steps); code != 0 {
			t.Fatalf("run %d: step %q exited %d", run, step, code)
		}
		if strings.Contains(r.logs, actionToken) {
			t.Errorf("run %d: the token is in the log:\n%s", run, r.logs)
		}
		if !strings.HasPrefix(r.summary, "### guard lint: ") {
			t.Errorf("run %d: job summary %q", run, r.summary)
		}
	}
	reqs := g.requests()
	if len(reqs) != 4 || !strings.HasPrefix(reqs[1], "POST /repos/o/r/issues/5/comments") || !strings.HasPrefix(reqs[3], "PATCH /repos/o/r/issues/comments/901") {
		t.Errorf("requests %v; want a list and a post, then a list and a patch of the same comment", reqs)
	}
	if cs := g.comments["5"]; len(cs) != 1 || cs[0].Body != "<!-- guard-report -->\n"+r.summary {
		t.Errorf("comments %+v; want one, the marker and the report", cs)
	}
	for _, a := range g.auth {
		if a != "Bearer "+actionToken {
			t.Errorf("Authorization %q, want the github-token input", a)
		}
	}

	g.refuse = 403
	r.inputs, r.logs = map[string]string{"comment": "true", "fail-on": "never", "github-token": "ghs_forkREADONLYtoken"}, ""
	if step, code := r.run(steps); code != 0 {
		t.Errorf("a refused comment: step %q exited %d, want the job left to the findings", step, code)
	}
	if !strings.Contains(r.logs, "403 Forbidden: Resource not accessible by integration") || !strings.Contains(r.logs, "::warning title=guard comment::") ||
		strings.Contains(r.logs, "ghs_forkREADONLYtoken") {
		t.Errorf("a refused comment's log:\n%s", r.logs)
	}

	g.requests()
	r.inputs, r.summary = map[string]string{"summary": "false", "fail-on": "never"}, ""
	r.outputs = map[string]map[string]string{}
	if step, code := r.run(steps); code != 0 || r.summary != "" || r.outputs["lint"]["markdown-file"] != "" || len(g.requests()) != 0 {
		t.Errorf("summary and comment off: step %q exit %d, summary %q, outputs %v", step, code, r.summary, r.outputs["lint"])
	}
}
