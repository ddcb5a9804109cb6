package prcomment

import (
	"encoding/json"
	"fmt"
	"os"
)

// PullRequestNumber reads the event file of a GitHub Actions run
// (GITHUB_EVENT_PATH) and returns the number of the pull request it is
// about: pull_request and pull_request_target events carry it as
// pull_request.number, a comment on a pull request (issue_comment) as
// issue.number with issue.pull_request set. It is 0 for an event about no
// pull request (push, schedule, a comment on an issue).
func PullRequestNumber(eventPath string) (int, error) {
	b, err := os.ReadFile(eventPath)
	if err != nil {
		return 0, fmt.Errorf("read the event: %w", err)
	}
	var ev struct {
		PullRequest *struct {
			Number int `json:"number"`
		} `json:"pull_request"`
		Issue *struct {
			Number      int             `json:"number"`
			PullRequest json.RawMessage `json:"pull_request"`
		} `json:"issue"`
	}
	if err := json.Unmarshal(b, &ev); err != nil {
		return 0, fmt.Errorf("event %s: %v", eventPath, err)
	}
	switch {
	case ev.PullRequest != nil && ev.PullRequest.Number > 0:
		return ev.PullRequest.Number, nil
	case ev.Issue != nil && ev.Issue.Number > 0 && len(ev.Issue.PullRequest) > 0 && string(ev.Issue.PullRequest) != "null":
		return ev.Issue.Number, nil
	}
	return 0, nil
}
