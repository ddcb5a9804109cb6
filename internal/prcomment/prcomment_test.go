package prcomment

import (
	"context"
	"encoding/json"
	"errors"
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

const token = "ghs_s3cretTOKENvalue0123456789"

// fakeGitHub plays the issue comments API of one repository: it keeps the
// comments of each issue, serves them pageSize a page with a Link header
// as GitHub does (whatever per_page asks), and records every request.
type fakeGitHub struct {
	t        *testing.T
	prefix   string // "/api/v3" for GitHub Enterprise Server, else ""
	pageSize int
	// fail, when set, answers every request instead.
	fail func(w http.ResponseWriter, r *http.Request)
	// nextHost, when set, is the host of the next page links.
	nextHost string

	mu       sync.Mutex
	srv      *httptest.Server
	comments map[int][]Comment // by issue number
	nextID   int64
	log      []string // "METHOD path?query"
}

func newFake(t *testing.T) *fakeGitHub {
	f := &fakeGitHub{t: t, pageSize: 2, comments: map[int][]Comment{}, nextID: 100}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeGitHub) client() *Client {
	return &Client{BaseURL: f.srv.URL + f.prefix, Token: token, UserAgent: "guard-test"}
}

// add puts a comment of someone else's on issue n.
func (f *fakeGitHub) add(n int, body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	f.comments[n] = append(f.comments[n], Comment{ID: f.nextID, Body: body, HTMLURL: fmt.Sprintf("https://github.example/o/r/pull/%d#issuecomment-%d", n, f.nextID)})
}

func (f *fakeGitHub) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.log
	f.log = nil
	return out
}

func (f *fakeGitHub) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	entry := r.Method + " " + r.URL.Path
	if r.URL.RawQuery != "" {
		entry += "?" + r.URL.RawQuery
	}
	f.log = append(f.log, entry)
	if got := r.Header.Get("Authorization"); got != "Bearer "+token {
		f.t.Errorf("%s: Authorization %q", entry, got)
		http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
		return
	}
	if r.Header.Get("Accept") != "application/vnd.github+json" || r.Header.Get("X-GitHub-Api-Version") == "" || r.Header.Get("User-Agent") != "guard-test" {
		f.t.Errorf("%s: headers %v", entry, r.Header)
	}
	if f.fail != nil {
		f.fail(w, r)
		return
	}
	path, ok := strings.CutPrefix(r.URL.Path, f.prefix+"/repos/o/r/issues/")
	if !ok {
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch parts := strings.Split(path, "/"); {
	case len(parts) == 2 && parts[1] == "comments" && r.Method == http.MethodGet:
		n, _ := strconv.Atoi(parts[0])
		if r.URL.Query().Get("per_page") != "100" {
			f.t.Errorf("%s: per_page %q, want 100", entry, r.URL.Query().Get("per_page"))
		}
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		all := f.comments[n]
		from, to := min((page-1)*f.pageSize, len(all)), min(page*f.pageSize, len(all))
		if to < len(all) {
			host := f.nextHost
			if host == "" {
				host = r.Host
			}
			w.Header().Set("Link", fmt.Sprintf(`<http://%s%s?per_page=100&page=%d>; rel="next", <http://%s%s?per_page=100&page=%d>; rel="last"`,
				host, r.URL.Path, page+1, host, r.URL.Path, (len(all)+f.pageSize-1)/f.pageSize))
		}
		json.NewEncoder(w).Encode(all[from:to])
	case len(parts) == 2 && parts[1] == "comments" && r.Method == http.MethodPost:
		n, _ := strconv.Atoi(parts[0])
		var in struct{ Body string }
		json.NewDecoder(r.Body).Decode(&in)
		f.nextID++
		c := Comment{ID: f.nextID, Body: in.Body, HTMLURL: fmt.Sprintf("https://github.example/o/r/pull/%d#issuecomment-%d", n, f.nextID)}
		f.comments[n] = append(f.comments[n], c)
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(c)
	case len(parts) == 2 && parts[0] == "comments" && r.Method == http.MethodPatch:
		id, _ := strconv.ParseInt(parts[1], 10, 64)
		var in struct{ Body string }
		json.NewDecoder(r.Body).Decode(&in)
		for n, cs := range f.comments {
			for i := range cs {
				if cs[i].ID == id {
					cs[i].Body = in.Body
					f.comments[n] = cs
					json.NewEncoder(w).Encode(cs[i])
					return
				}
			}
		}
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
	default:
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
	}
}

// TestUpsert: the first run lists every page and posts, the second finds
// its comment on the last page and edits it; comments of others that quote
// the marker are left alone, and another marker is a comment of its own.
func TestUpsert(t *testing.T) {
	for _, prefix := range []string{"", "/api/v3"} {
		t.Run("prefix "+prefix, func(t *testing.T) {
			f := newFake(t)
			f.prefix = prefix
			f.add(7, "LGTM")
			f.add(7, "> <!-- guard-report -->\n> quoted from the report")
			f.add(7, "the marker <!-- guard-report --> in the middle")
			f.add(8, "<!-- guard-report -->\nthe report of another pull request")
			c, ctx := f.client(), context.Background()
			list := func(pages int) []string {
				var out []string
				for p := 1; p <= pages; p++ {
					q := "?per_page=100"
					if p > 1 {
						q += "&page=" + strconv.Itoa(p)
					}
					out = append(out, "GET "+prefix+"/repos/o/r/issues/7/comments"+q)
				}
				return out
			}

			first, err := c.Upsert(ctx, "o/r", 7, DefaultMarker, "### guard lint: 1 error")
			if err != nil {
				t.Fatal(err)
			}
			if first.Updated || first.Body != "<!-- guard-report -->\n### guard lint: 1 error" {
				t.Errorf("first run: %+v, want a new comment starting with the marker", first)
			}
			if d := cmp.Diff(append(list(2), "POST "+prefix+"/repos/o/r/issues/7/comments"), f.requests()); d != "" {
				t.Errorf("first run's requests (-want +got):\n%s", d)
			}

			second, err := c.Upsert(ctx, "o/r", 7, DefaultMarker, "### guard lint: no findings")
			if err != nil {
				t.Fatal(err)
			}
			if !second.Updated || second.ID != first.ID || second.HTMLURL != first.HTMLURL {
				t.Errorf("second run: %+v, want comment %d updated", second, first.ID)
			}
			want := append(list(2), fmt.Sprintf("PATCH %s/repos/o/r/issues/comments/%d", prefix, first.ID))
			if d := cmp.Diff(want, f.requests()); d != "" {
				t.Errorf("second run's requests (-want +got):\n%s", d)
			}
			if n := len(f.comments[7]); n != 4 || f.comments[7][3].Body != "<!-- guard-report -->\n### guard lint: no findings" {
				t.Errorf("comments of #7: %+v", f.comments[7])
			}
			if f.comments[7][1].Body != "> <!-- guard-report -->\n> quoted from the report" || f.comments[8][0].Body != "<!-- guard-report -->\nthe report of another pull request" {
				t.Errorf("another comment was changed: %+v %+v", f.comments[7], f.comments[8])
			}

			audit, err := c.Upsert(ctx, "o/r", 7, "guard-audit", "### guard audit")
			if err != nil || audit.Updated || audit.ID == first.ID || !strings.HasPrefix(audit.Body, "<!-- guard-audit -->\n") {
				t.Errorf("another marker: %+v, %v; want a comment of its own", audit, err)
			}
		})
	}
}

// TestUpsertManyPages follows the Link header through 40 pages.
func TestUpsertManyPages(t *testing.T) {
	f := newFake(t)
	for i := range 79 {
		f.add(3, "comment "+strconv.Itoa(i))
	}
	if _, err := f.client().Upsert(context.Background(), "o/r", 3, DefaultMarker, "x"); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 41 || !strings.HasSuffix(reqs[39], "&page=40") || !strings.HasPrefix(reqs[40], "POST ") {
		t.Errorf("%d requests, ending %q", len(reqs), reqs[max(0, len(reqs)-2):])
	}
	f.add(3, "comment after")
	out, err := f.client().Upsert(context.Background(), "o/r", 3, DefaultMarker, "y")
	if err != nil || !out.Updated {
		t.Errorf("second run: %+v, %v", out, err)
	}
}

// TestAPIErrors: a refusal names the request, the status and GitHub's
// message; nothing holds the token, not even a server that echoes it.
func TestAPIErrors(t *testing.T) {
	for _, tt := range []struct {
		name   string
		fail   func(w http.ResponseWriter, r *http.Request)
		status int
		want   string
	}{
		{"read-only token", func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet {
				w.Write([]byte("[]"))
				return
			}
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest"}`))
		}, 403, "GitHub API POST /repos/o/r/issues/5/comments: 403 Forbidden: Resource not accessible by integration"},
		{"validation", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnprocessableEntity)
			w.Write([]byte(`{"message":"Validation Failed","errors":[{"resource":"IssueComment","code":"custom","message":"body is too long (maximum is 65536 characters)"}]}`))
		}, 422, "GitHub API GET /repos/o/r/issues/5/comments: 422 Unprocessable Entity: Validation Failed (body is too long (maximum is 65536 characters))"},
		{"echoes the token", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"message":"Bad credentials: ` + r.Header.Get("Authorization") + `"}`))
		}, 401, "GitHub API GET /repos/o/r/issues/5/comments: 401 Unauthorized: Bad credentials: Bearer [token]"},
		{"not JSON", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadGateway)
			w.Write([]byte("<html>\n<body>upstream " + r.Header.Get("Authorization") + " down</body></html>"))
		}, 502, "GitHub API GET /repos/o/r/issues/5/comments: 502 Bad Gateway: <html> <body>upstream Bearer [token] down</body></html>"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			f.fail = tt.fail
			_, err := f.client().Upsert(context.Background(), "o/r", 5, DefaultMarker, "body")
			var ae *APIError
			if !errors.As(err, &ae) || ae.Status != tt.status || err.Error() != tt.want {
				t.Fatalf("error %v, want status %d and\n%s", err, tt.status, tt.want)
			}
			if strings.Contains(err.Error(), token) {
				t.Errorf("the error holds the token: %v", err)
			}
		})
	}
	t.Run("server gone", func(t *testing.T) {
		f := newFake(t)
		c := f.client()
		f.srv.Close()
		_, err := c.Upsert(context.Background(), "o/r", 5, DefaultMarker, "body")
		if err == nil || !strings.HasPrefix(err.Error(), "GitHub API GET /repos/o/r/issues/5/comments: ") || strings.Contains(err.Error(), token) {
			t.Errorf("error %v", err)
		}
	})
}

// TestNextPageElsewhere: a next page on another host is not followed, so
// the token goes to the API's host only.
func TestNextPageElsewhere(t *testing.T) {
	other := newFake(t)
	f := newFake(t)
	f.nextHost = strings.TrimPrefix(other.srv.URL, "http://")
	f.add(1, "a")
	f.add(1, "b")
	f.add(1, "c")
	_, err := f.client().Upsert(context.Background(), "o/r", 1, DefaultMarker, "x")
	if err == nil || !strings.Contains(err.Error(), "not the API's host") {
		t.Errorf("error %v, want the next page refused", err)
	}
	if reqs := other.requests(); len(reqs) != 0 {
		t.Errorf("the other host got %v", reqs)
	}
}

// TestUpsertRefusesBeforeAsking: what GitHub would refuse is refused
// without a request.
func TestUpsertRefusesBeforeAsking(t *testing.T) {
	f := newFake(t)
	c := f.client()
	for _, tt := range []struct {
		name, repo, marker, body string
		number                   int
		is                       error
		want                     string
	}{
		{name: "too long", repo: "o/r", marker: DefaultMarker, body: strings.Repeat("x", MaxBody), number: 1, is: ErrTooLong},
		{name: "too long in UTF-16", repo: "o/r", marker: DefaultMarker, body: strings.Repeat("😀", MaxBody/2-5), number: 1, is: ErrTooLong},
		{name: "marker closing the comment", repo: "o/r", marker: "x -->", body: "b", number: 1, is: ErrBadMarker},
		{name: "repository", repo: "o", marker: DefaultMarker, body: "b", number: 1, is: ErrBadTarget, want: `repository "o": want owner/name`},
		{name: "repository path", repo: "o/r/x", marker: DefaultMarker, body: "b", number: 1, is: ErrBadTarget, want: `repository "o/r/x": want owner/name`},
		{name: "number", repo: "o/r", marker: DefaultMarker, body: "b", number: 0, is: ErrBadTarget, want: "pull request number 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Upsert(context.Background(), tt.repo, tt.number, tt.marker, tt.body)
			if err == nil || (tt.is != nil && !errors.Is(err, tt.is)) || (tt.want != "" && !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("error %v, want %v %q", err, tt.is, tt.want)
			}
		})
	}
	if _, err := c.Upsert(context.Background(), "o/r", 1, DefaultMarker, strings.Repeat("😀", MaxBody/2-20)); err != nil {
		t.Errorf("a body just within the limit: %v", err)
	}
	if reqs := f.requests(); len(reqs) != 2 {
		t.Errorf("requests %v, want only the one run within the limit (list and post)", reqs)
	}
}

func TestNextLink(t *testing.T) {
	for header, want := range map[string]string{
		"": "",
		`<https://api.github.com/repositories/1/issues/2/comments?page=2>; rel="next", <https://api.github.com/repositories/1/issues/2/comments?page=5>; rel="last"`: "https://api.github.com/repositories/1/issues/2/comments?page=2",
		`<https://x/?page=1>; rel="prev", <https://x/?page=3>; rel="next"`:                                                                                           "https://x/?page=3",
		`<https://x/?page=1>; rel="first", <https://x/?page=1>; rel="prev"`:                                                                                          "",
		`<https://x/?page=4>; rel="next last"`:                                                                                                                       "https://x/?page=4",
	} {
		if got := nextLink(header); got != want {
			t.Errorf("nextLink(%q) = %q, want %q", header, got, want)
		}
	}
}

func TestPullRequestNumber(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, event string
		want        int
		err         bool
	}{
		{name: "pull_request", event: `{"action":"synchronize","number":12,"pull_request":{"number":12,"head":{"sha":"abc"}}}`, want: 12},
		{name: "pull_request_target", event: `{"action":"opened","pull_request":{"number":3}}`, want: 3},
		{name: "comment on a pull request", event: `{"action":"created","issue":{"number":9,"pull_request":{"url":"https://api.github.com/repos/o/r/pulls/9"}},"comment":{"id":1}}`, want: 9},
		{name: "comment on an issue", event: `{"action":"created","issue":{"number":9},"comment":{"id":1}}`},
		{name: "comment on an issue, null", event: `{"issue":{"number":9,"pull_request":null}}`},
		{name: "push", event: `{"ref":"refs/heads/main","after":"abc"}`},
		{name: "not JSON", event: `{"ref":`, err: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".json")
			if err := os.WriteFile(path, []byte(tt.event), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := PullRequestNumber(path)
			if (err != nil) != tt.err || got != tt.want {
				t.Errorf("PullRequestNumber = %d, %v; want %d, error %v", got, err, tt.want, tt.err)
			}
		})
	}
	if _, err := PullRequestNumber(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing event file: no error")
	}
}
