package validation

import (
	"regexp/syntax"
	"unicode"
)

// SafePattern reports whether every string the regexp re matches is text
// that cannot leave the place of an identifier list in SQL: letters,
// digits, '_', '.', ',', '`' and white space — column names, directions,
// a list of them. A regexp that admits a quote, a bracket, an operator or
// a comment marker (`.*`, `[^']+`) checks nothing against injection, and
// one guard's reader of regexps does not know (a Java-only construct) is
// taken for such a one.
func SafePattern(re string) bool {
	if re == "" {
		return false
	}
	tree, err := syntax.Parse(re, syntax.Perl)
	if err != nil {
		return false
	}
	return safeTree(tree)
}

// safeTree reports whether every string tree matches is safe text.
func safeTree(tree *syntax.Regexp) bool {
	switch tree.Op {
	case syntax.OpNoMatch, syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine,
		syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	case syntax.OpLiteral:
		for _, r := range tree.Rune {
			if !safeRune(r) {
				return false
			}
		}
		return true
	case syntax.OpCharClass:
		for i := 0; i+1 < len(tree.Rune); i += 2 {
			for r := tree.Rune[i]; r <= tree.Rune[i+1]; r++ {
				if !safeRune(r) {
					return false
				}
			}
		}
		return true
	case syntax.OpCapture, syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat,
		syntax.OpConcat, syntax.OpAlternate:
		for _, sub := range tree.Sub {
			if !safeTree(sub) {
				return false
			}
		}
		return true
	}
	return false // any character
}

// safeRune reports whether r may stand in a list of identifiers.
func safeRune(r rune) bool {
	if unicode.IsLetter(r) || unicode.IsDigit(r) {
		return true // the case folds of a letter are letters
	}
	switch r {
	case '_', '.', ',', '`', ' ', '\t', '\n', '\r', '\f':
		return true
	}
	return false
}
