package java

// Tokens is the token stream of a file, for a framework package whose
// question the other views do not answer: what an expression of a method
// is built from, and what the method checks before it. It is read-only;
// indices run from 0 to Len()-1, and an index out of range reads as no
// token.
type Tokens struct{ x *javaFile }

// Tokens returns the file's token stream.
func (s Syntax) Tokens() Tokens { return Tokens{s.x} }

// TokenKind is the kind of a token.
type TokenKind uint8

// The kinds of tokens, in the order of the lexer's.
const (
	TokIdent  TokenKind = iota // identifiers and keywords
	TokString                  // "…" and """…""" literals
	TokChar                    // '…' literals
	TokNumber
	TokOp    // operators and punctuation
	TokAnnot // @Name or @a.b.Name; Text holds the name without '@'
)

// Token is one token: its kind, its text as written and where it starts.
type Token struct {
	Kind      TokenKind
	Text      string
	Line, Col int
}

// Len returns the number of tokens.
func (t Tokens) Len() int { return len(t.x.toks) }

// At returns token i.
func (t Tokens) At(i int) Token {
	if i < 0 || i >= len(t.x.toks) {
		return Token{Kind: TokOp}
	}
	k := &t.x.toks[i]
	return Token{Kind: TokenKind(k.kind), Text: k.text, Line: k.line, Col: k.col}
}

// Is reports whether token i is the name, keyword or operator text.
func (t Tokens) Is(i int, text string) bool { return t.x.is(i, text) }

// Match returns the bracket matching the bracket at i, -1 for none.
func (t Tokens) Match(i int) int {
	if i < 0 || i >= len(t.x.match) {
		return -1
	}
	return t.x.match[i]
}

// Literal returns the value of the string literal at i, decoded.
func (t Tokens) Literal(i int) string {
	if i < 0 || i >= len(t.x.toks) || t.x.toks[i].kind != javaString {
		return ""
	}
	return t.x.toks[i].literal().String()
}

// Enclosing returns the innermost '{' around token i, -1 at the top level.
func (t Tokens) Enclosing(i int) int {
	if i < 0 || i >= len(t.x.encl) {
		return -1
	}
	return t.x.encl[i]
}

// MethodBody returns the '{' of the method or constructor body that holds
// token i, -1 for none.
func (t Tokens) MethodBody(i int) int { return t.x.methodBlock(i) }

// Body returns the '{' of method m's body, -1 for none.
func (t Tokens) Body(m Member) int { return m.body }

// ChainStart returns the first token of the call chain whose last name is
// token i: a.b().c, new Foo().bar.
func (t Tokens) ChainStart(i int) int { return t.x.chainStart(i) }

// DeclaredType returns the simple type name that a local, field or
// parameter called name is declared with before token i (the Example of
// `PmsBrandExample.Criteria c`), "" when none is found.
func (t Tokens) DeclaredType(name string, i int) string { return t.x.declaredType(name, i) }

// Annotation reads the annotation at token i, which must be one.
func (t Tokens) Annotation(i int) Annotation { return t.x.annotationAt(i) }

// AnnotationsBefore returns the annotations of the declaration whose name
// (or keyword) is token i, walking back over its type and modifiers: a
// parameter's, a field's, a type's. The nearest comes first.
func (t Tokens) AnnotationsBefore(i int) []Annotation {
	var public bool
	return t.x.headerAnnotations(i, &public)
}
