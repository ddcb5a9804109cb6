// Package prcomment keeps one comment of guard's on a GitHub pull request,
// through the REST API: the comment that starts with a hidden marker is
// edited if it exists, else posted, so that every run of a workflow updates
// the same comment instead of adding one.
package prcomment

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
)

// DefaultMarker names the comment of a guard report.
const DefaultMarker = "guard-report"

// MaxBody is the most characters GitHub takes in a comment's body, counted
// in UTF-16 code units as it counts them.
const MaxBody = 65536

// maxPages bounds the pages of comments read (100 comments each).
const maxPages = 100

// maxResponse bounds how much of a response is read.
const maxResponse = 16 << 20

// Client talks to the GitHub REST API for one token.
type Client struct {
	// BaseURL is the API's root: https://api.github.com, or
	// https://HOST/api/v3 on GitHub Enterprise Server (GITHUB_API_URL).
	BaseURL string
	// Token is sent as a bearer token and never appears in an error.
	Token string
	// HTTP is the client requests go through; nil is one with a 30 s
	// timeout.
	HTTP *http.Client
	// UserAgent names the caller, as GitHub requires.
	UserAgent string
}

// Comment is an issue comment as the API returns it.
type Comment struct {
	ID      int64  `json:"id"`
	HTMLURL string `json:"html_url"`
	Body    string `json:"body"`
}

// Outcome is the comment Upsert left, and whether it edited one that was
// there (else it posted it).
type Outcome struct {
	Comment
	Updated bool
}

// ErrBadMarker is returned for a marker that is not a plain name.
var ErrBadMarker = errors.New("marker must be letters, digits, '.', '_' or '-'")

// ErrTooLong is returned for a body GitHub would refuse.
var ErrTooLong = errors.New("comment too long")

// ErrBadTarget is returned for a repository that is not owner/name, or a
// pull request number below 1.
var ErrBadTarget = errors.New("no such pull request")

// APIError is a response of the API other than success.
type APIError struct {
	Method string
	// Path is the request's path, without host or query.
	Path   string
	Status int
	// Message is GitHub's message ("Resource not accessible by
	// integration"), or the start of the body when it is not GitHub's JSON.
	Message string
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("GitHub API %s %s: %d %s", e.Method, e.Path, e.Status, http.StatusText(e.Status))
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

var markerRE = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// MarkerLine is the hidden first line of the comment a marker names.
func MarkerLine(marker string) string { return "<!-- " + marker + " -->" }

// Upsert makes body the one comment that marker names on issue or pull
// request number of repo ("owner/name"): it lists the comments, every page,
// edits the first that starts with the marker's line and posts a new one
// when none does.
func (c *Client) Upsert(ctx context.Context, repo string, number int, marker, body string) (*Outcome, error) {
	if !markerRE.MatchString(marker) {
		return nil, fmt.Errorf("marker %q: %w", marker, ErrBadMarker)
	}
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return nil, fmt.Errorf("repository %q: want owner/name: %w", repo, ErrBadTarget)
	}
	if number < 1 {
		return nil, fmt.Errorf("pull request number %d: want 1 or more: %w", number, ErrBadTarget)
	}
	line := MarkerLine(marker)
	body = line + "\n" + body
	if n := len(utf16.Encode([]rune(body))); n > MaxBody {
		return nil, fmt.Errorf("%w: %d characters with the marker, GitHub takes %d", ErrTooLong, n, MaxBody)
	}
	base, err := c.base()
	if err != nil {
		return nil, err
	}
	issue := "/repos/" + url.PathEscape(owner) + "/" + url.PathEscape(name) + "/issues/"
	found, err := c.find(ctx, base, issue+strconv.Itoa(number)+"/comments", line)
	if err != nil {
		return nil, err
	}
	payload := map[string]string{"body": body}
	var out Outcome
	if found != nil {
		err = c.do(ctx, http.MethodPatch, base.JoinPath(issue+"comments/"+strconv.FormatInt(found.ID, 10)).String(), payload, &out.Comment, nil)
		out.Updated = true
	} else {
		err = c.do(ctx, http.MethodPost, base.JoinPath(issue+strconv.Itoa(number)+"/comments").String(), payload, &out.Comment, nil)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// base parses BaseURL.
func (c *Client) base() (*url.URL, error) {
	raw := c.BaseURL
	if raw == "" {
		raw = "https://api.github.com"
	}
	u, err := url.Parse(strings.TrimRight(raw, "/"))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("API URL %q: want https://host[/path]", raw)
	}
	return u, nil
}

// find reads the comments page by page, following the Link header's next
// page, and returns the first whose body starts with line, or nil.
func (c *Client) find(ctx context.Context, base *url.URL, path, line string) (*Comment, error) {
	next := base.JoinPath(path)
	next.RawQuery = "per_page=100"
	for range maxPages {
		var page []Comment
		var header http.Header
		if err := c.do(ctx, http.MethodGet, next.String(), nil, &page, &header); err != nil {
			return nil, err
		}
		for i := range page {
			if strings.HasPrefix(page[i].Body, line) {
				return &page[i], nil
			}
		}
		link := nextLink(header.Get("Link"))
		if link == "" {
			return nil, nil
		}
		u, err := base.Parse(link)
		if err != nil {
			return nil, fmt.Errorf("list comments: next page %q: %v", link, err)
		}
		// The token goes to the API's host only.
		if u.Scheme != base.Scheme || u.Host != base.Host {
			return nil, fmt.Errorf("list comments: next page on %s, not the API's host %s", u.Host, base.Host)
		}
		next = u
	}
	return nil, fmt.Errorf("list comments: more than %d pages", maxPages)
}

var linkRE = regexp.MustCompile(`<([^>]*)>\s*;\s*rel="?([^";]*)"?`)

// nextLink is the URL of rel="next" in a Link header, or "".
func nextLink(header string) string {
	for _, part := range strings.Split(header, ",") {
		if m := linkRE.FindStringSubmatch(part); m != nil {
			for _, rel := range strings.Fields(m[2]) {
				if rel == "next" {
					return m[1]
				}
			}
		}
	}
	return ""
}

// do sends one request with payload as its JSON body (nil: none), decodes
// a successful response's body into out and keeps its header.
func (c *Client) do(ctx context.Context, method, rawURL string, payload, out any, header *http.Header) error {
	var body io.Reader
	if payload != nil {
		b, err := json.Marshal(payload)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, rawURL, body)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("Authorization", "Bearer "+c.Token)
	ua := c.UserAgent
	if ua == "" {
		ua = "guard"
	}
	req.Header.Set("User-Agent", ua)
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("GitHub API %s %s: %s", method, req.URL.Path, c.redact(errText(err)))
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return fmt.Errorf("GitHub API %s %s: read the response: %s", method, req.URL.Path, c.redact(err.Error()))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &APIError{Method: method, Path: req.URL.Path, Status: resp.StatusCode, Message: c.redact(apiMessage(b))}
	}
	if header != nil {
		*header = resp.Header
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("GitHub API %s %s: response is not the JSON expected: %v", method, req.URL.Path, err)
	}
	return nil
}

// errText is a transport error's text without the URL net/http puts in
// front of it: the path is said already.
func errText(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// apiMessage is GitHub's message of an error response, with the first of
// its errors' messages, or the start of a body that is not its JSON.
func apiMessage(b []byte) string {
	var doc struct {
		Message string `json:"message"`
		Errors  []struct {
			Message string `json:"message"`
			Code    string `json:"code"`
		} `json:"errors"`
	}
	if json.Unmarshal(b, &doc) == nil && doc.Message != "" {
		msg := doc.Message
		if len(doc.Errors) > 0 {
			if e := cmp.Or(doc.Errors[0].Message, doc.Errors[0].Code); e != "" {
				msg += " (" + e + ")"
			}
		}
		return oneLine(msg, 300)
	}
	return oneLine(string(b), 200)
}

// oneLine is s on one line, cut to n bytes at a character boundary.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "?")), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// redact removes the token from text a server or transport wrote.
func (c *Client) redact(s string) string {
	if c.Token == "" {
		return s
	}
	return strings.ReplaceAll(s, c.Token, "[token]")
}
