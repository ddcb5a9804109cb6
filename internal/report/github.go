package report

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// writeGitHub prints one GitHub Actions workflow command per finding, which
// the runner turns into an annotation on the file and line:
//
//	::error file=F,line=L,col=C,endLine=E,title=CODE rule::message
//
// The fix hint follows the message on a second line of the annotation.
func writeGitHub(buf *bytes.Buffer, res *lint.Result, opts Options) {
	for i := range res.Findings {
		f := &res.Findings[i]
		var props []string
		msg := f.Message + ranText(f)
		if f.File != "" {
			props = append(props, "file="+escapeProperty(f.File))
			if f.Line > 0 {
				props = append(props, "line="+strconv.Itoa(f.Line))
				if f.Column > 0 {
					props = append(props, "col="+strconv.Itoa(f.Column))
				}
				if f.EndLine >= f.Line {
					props = append(props, "endLine="+strconv.Itoa(f.EndLine))
				}
			}
		} else {
			msg = placeOf(f) + ": " + msg
		}
		title := f.Code
		if f.Rule != "" {
			title += " " + f.Rule
		}
		props = append(props, "title="+escapeProperty(title))
		if f.Fix != "" {
			msg += "\nFix: " + f.Fix
		}
		buf.WriteString("::")
		buf.WriteString(githubCommand(f.Severity))
		buf.WriteByte(' ')
		buf.WriteString(strings.Join(props, ","))
		buf.WriteString("::")
		buf.WriteString(escapeData(msg))
		buf.WriteByte('\n')
	}
	if l := opts.Live; l != nil {
		for _, f := range l.Failures {
			buf.WriteString("::error title=guard audit::" + escapeData(f.Target+": "+f.Error) + "\n")
		}
	}
}

// githubCommand maps a severity to the annotation level: GitHub knows error,
// warning and notice.
func githubCommand(s policy.Severity) string {
	switch s {
	case policy.SevError:
		return "error"
	case policy.SevWarning:
		return "warning"
	}
	return "notice"
}

// escapeData escapes a command's message as the runner unescapes it
// (actions/toolkit escapeData): % first, so the other escapes survive.
func escapeData(s string) string {
	return dataEscaper.Replace(s)
}

// escapeProperty escapes a property value; : and , would otherwise end it.
func escapeProperty(s string) string {
	return propertyEscaper.Replace(s)
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)
