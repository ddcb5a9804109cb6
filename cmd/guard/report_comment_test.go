package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const testToken = "ghs_TESTt0ken4guardREPORTcomment"

// issueComment is a comment the fake GitHub keeps.
type issueComment struct {
	ID      int64  `json:"id"`
	Body    string `json:"body"`
	HTMLURL string `json:"html_url"`
}

// githubAPI is a local stand-in for the issue comments API of repository
// o/r: it keeps the comments of each pull request, serves them one a page
// with a Link header as GitHub pages them, and records every request.
type githubAPI struct {
	srv *httptest.Server
	// refuse, when not 0, answers every write with this status.
	refuse int

	mu       sync.Mutex
	comments map[string][]issueComment // by pull request number
	nextID   int64
	log      []string
	auth     []string
}

func newGitHubAPI(t *testing.T) *githubAPI {
	g := &githubAPI{comments: map[string][]issueComment{}, nextID: 900}
	g.srv = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(g.srv.Close)
	return g
}

func (g *githubAPI) requests() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := g.log
	g.log = nil
	return out
}

func (g *githubAPI) serve(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.log = append(g.log, r.Method+" "+r.URL.RequestURI())
	g.auth = append(g.auth, r.Header.Get("Authorization"))
	w.Header().Set("Content-Type", "application/json")
	if g.refuse != 0 && r.Method != http.MethodGet {
		w.WriteHeader(g.refuse)
		fmt.Fprintf(w, `{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest"}`)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/repos/o/r/issues/")
	if !ok {
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
		return
	}
	parts := strings.Split(rest, "/")
	var in struct{ Body string }
	switch {
	case len(parts) == 2 && parts[1] == "comments" && r.Method == http.MethodGet:
		all := g.comments[parts[0]]
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		if page < len(all) {
			w.Header().Set("Link", fmt.Sprintf(`<%s%s?per_page=100&page=%d>; rel="next"`, g.srv.URL, r.URL.Path, page+1))
		}
		json.NewEncoder(w).Encode(all[min(page-1, len(all)):min(page, len(all))])
	case len(parts) == 2 && parts[1] == "comments" && r.Method == http.MethodPost:
		json.NewDecoder(r.Body).Decode(&in)
		g.nextID++
		c := issueComment{ID: g.nextID, Body: in.Body, HTMLURL: fmt.Sprintf("https://github.example/o/r/pull/%s#issuecomment-%d", parts[0], g.nextID)}
		g.comments[parts[0]] = append(g.comments[parts[0]], c)
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(c)
	case len(parts) == 2 && parts[0] == "comments" && r.Method == http.MethodPatch:
		json.NewDecoder(r.Body).Decode(&in)
		id, _ := strconv.ParseInt(parts[1], 10, 64)
		for pr, cs := range g.comments {
			for i := range cs {
				if cs[i].ID == id {
					g.comments[pr][i].Body = in.Body
					json.NewEncoder(w).Encode(g.comments[pr][i])
					return
				}
			}
		}
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
	default:
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
	}
}

// actionsEnv sets the environment a GitHub Actions job on pull request 5
// of o/r has, the API being g, and returns the event file.
func actionsEnv(t *testing.T, g *githubAPI, event string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(path, []byte(event), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_API_URL", g.srv.URL)
	t.Setenv("GITHUB_REPOSITORY", "o/r")
	t.Setenv("GITHUB_EVENT_PATH", path)
	t.Setenv("GITHUB_EVENT_NAME", "pull_request")
	t.Setenv("GITHUB_TOKEN", testToken)
	t.Setenv("GH_TOKEN", "")
	return path
}

const prEvent = `{"action":"synchronize","number":5,"pull_request":{"number":5}}`

// guardNoToken runs guard and fails t if the token shows in its output.
func guardNoToken(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	out, errOut, code := guard(t, args...)
	if strings.Contains(out+errOut, testToken) {
		t.Errorf("guard %s: the token appears in its output:\nstdout: %s\nstderr: %s", strings.Join(args, " "), out, errOut)
	}
	return out, errOut, code
}

// TestReportComment: the first run posts the report under its marker,
// the second finds it past the other comments' pages and edits it.
func TestReportComment(t *testing.T) {
	g := newGitHubAPI(t)
	actionsEnv(t, g, prEvent)
	g.comments["5"] = []issueComment{{ID: 1, Body: "first review"}, {ID: 2, Body: "> <!-- guard-report -->\n> quoted"}}
	dir := t.TempDir()
	report := filepath.Join(dir, "guard.md")
	write := func(s string) {
		if err := os.WriteFile(report, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	write("### guard lint: 1 error\n")
	out, errOut, code := guardNoToken(t, "report", "comment", "--file", report)
	if code != exitClean || out != "posted comment https://github.example/o/r/pull/5#issuecomment-901\n" || errOut != "" {
		t.Fatalf("first run: exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
	list := []string{"GET /repos/o/r/issues/5/comments?per_page=100", "GET /repos/o/r/issues/5/comments?per_page=100&page=2"}
	if d := cmp.Diff(append(list, "POST /repos/o/r/issues/5/comments"), g.requests()); d != "" {
		t.Errorf("first run's requests (-want +got):\n%s", d)
	}

	write("### guard lint: no findings\n")
	out, _, code = guardNoToken(t, "report", "comment", "--file", report)
	if code != exitClean || out != "updated comment https://github.example/o/r/pull/5#issuecomment-901\n" {
		t.Fatalf("second run: exit %d, stdout %q", code, out)
	}
	list = append(list, "GET /repos/o/r/issues/5/comments?per_page=100&page=3")
	if d := cmp.Diff(append(list, "PATCH /repos/o/r/issues/comments/901"), g.requests()); d != "" {
		t.Errorf("second run's requests (-want +got):\n%s", d)
	}
	want := []issueComment{{ID: 1, Body: "first review"}, {ID: 2, Body: "> <!-- guard-report -->\n> quoted"},
		{ID: 901, Body: "<!-- guard-report -->\n### guard lint: no findings\n", HTMLURL: "https://github.example/o/r/pull/5#issuecomment-901"}}
	if d := cmp.Diff(want, g.comments["5"]); d != "" {
		t.Errorf("comments (-want +got):\n%s", d)
	}
	for _, a := range g.auth {
		if a != "Bearer "+testToken {
			t.Errorf("Authorization %q", a)
		}
	}

	// Standard input, another marker, and --repo and --pr over the environment.
	g.comments["9"] = nil
	out, errOut, code = guardStdin(t, "### guard audit: no findings\n", "report", "comment", "--file", "-", "--marker", "guard-audit", "--repo", "o/r", "--pr", "9")
	if code != exitClean || !strings.HasPrefix(out, "posted comment ") || len(g.comments["9"]) != 1 || g.comments["9"][0].Body != "<!-- guard-audit -->\n### guard audit: no findings\n" {
		t.Errorf("from stdin: exit %d, stdout %q, stderr %q, comments %+v", code, out, errOut, g.comments["9"])
	}
}

// guardStdin is guard with stdin as its standard input.
func guardStdin(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.WriteString(stdin)
		w.Close()
	}()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old; r.Close() }()
	return guardNoToken(t, args...)
}

// TestReportCommentFailures: the API's refusal is exit 3 with its status
// and message and a note on the permission; what is missing locally is
// exit 2 before any request; an event about no pull request posts nothing,
// exit 0.
func TestReportCommentFailures(t *testing.T) {
	dir := t.TempDir()
	report, empty := filepath.Join(dir, "guard.md"), filepath.Join(dir, "empty.md")
	if err := os.WriteFile(report, []byte("### guard lint: 1 error\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(empty, []byte("\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	t.Run("refused", func(t *testing.T) {
		g := newGitHubAPI(t)
		g.refuse = http.StatusForbidden
		actionsEnv(t, g, prEvent)
		out, errOut, code := guardNoToken(t, "report", "comment", "--file", report)
		want := "guard: note: the token needs permission pull-requests: write on o/r; a pull request from a fork gets a read-only token\n" +
			"guard: GitHub API POST /repos/o/r/issues/5/comments: 403 Forbidden: Resource not accessible by integration\n"
		if code != exitRuntime || out != "" || errOut != want {
			t.Errorf("exit %d, stdout %q, stderr\n%s\nwant exit 3 and\n%s", code, out, errOut, want)
		}
	})
	t.Run("unreachable", func(t *testing.T) {
		g := newGitHubAPI(t)
		actionsEnv(t, g, prEvent)
		g.srv.Close()
		_, errOut, code := guardNoToken(t, "report", "comment", "--file", report)
		if code != exitRuntime || !strings.HasPrefix(errOut, "guard: GitHub API GET /repos/o/r/issues/5/comments: ") {
			t.Errorf("exit %d, stderr %q", code, errOut)
		}
	})
	t.Run("push", func(t *testing.T) {
		g := newGitHubAPI(t)
		actionsEnv(t, g, `{"ref":"refs/heads/main"}`)
		t.Setenv("GITHUB_EVENT_NAME", "push")
		out, errOut, code := guardNoToken(t, "report", "comment", "--file", report)
		if code != exitClean || out != "" || errOut != "guard: note: the push event is about no pull request: no comment posted\n" || len(g.requests()) != 0 {
			t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
		}
	})
	for _, tt := range []struct {
		name  string
		unset string
		args  []string
		want  string
	}{
		{name: "no token", unset: "GITHUB_TOKEN", args: []string{"--file", report}, want: "guard: no token: set GITHUB_TOKEN"},
		{name: "no repository", unset: "GITHUB_REPOSITORY", args: []string{"--file", report}, want: "guard: no repository: give --repo owner/name or set GITHUB_REPOSITORY\n"},
		{name: "no event", unset: "GITHUB_EVENT_PATH", args: []string{"--file", report}, want: "guard: no pull request: give --pr N or set GITHUB_EVENT_PATH"},
		{name: "missing file", args: []string{"--file", filepath.Join(dir, "missing.md")}, want: "guard: read --file: open "},
		{name: "empty file", args: []string{"--file", empty}, want: "guard: --file " + empty + " is empty: nothing to post\n"},
		{name: "bad marker", args: []string{"--file", report, "--marker", "x -->"}, want: `guard: marker "x -->": marker must be`},
		{name: "bad repository", args: []string{"--file", report, "--repo", "o"}, want: `guard: repository "o": want owner/name`},
		{name: "bad number", args: []string{"--file", report, "--pr", "0"}, want: "guard: --pr 0: want a pull request number\n"},
		{name: "no file flag", args: nil, want: "guard: missing --file; see guard report comment --help\n"},
		{name: "arguments", args: []string{"--file", report, "x"}, want: `guard: report comment takes no arguments (got ["x"])`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := newGitHubAPI(t)
			actionsEnv(t, g, prEvent)
			if tt.unset != "" {
				t.Setenv(tt.unset, "")
			}
			out, errOut, code := guardNoToken(t, append([]string{"report", "comment"}, tt.args...)...)
			if code != exitInput || out != "" || !strings.HasPrefix(errOut, tt.want) || len(g.requests()) != 0 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, no request and stderr starting %q", code, out, errOut, tt.want)
			}
		})
	}
}
