// Package strictjson reads JSON strictly, on jsonnode's tree: the checks
// of a whole document (its size, emptiness, UTF-8, syntax with a line and
// column, an object at the top), values described in JSON terms for
// messages, keys given twice, "did you mean" for unknown keys, paths such
// as points[2].text, and a decoder into Go values that reports every
// problem with its path. Each door (forms, deliberation, the settings
// file, MCP tool arguments) reads with it and words its own messages where
// it has its own wording: the checks and the facts behind the messages
// are made here once.
package strictjson

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/elicit/elicit/internal/jsonnode"
)

// Options say how a document is read.
type Options struct {
	// Max is the largest document read, in bytes; 0 for no limit.
	Max int
	// SkipBOM drops a UTF-8 byte order mark at the start, as editors on
	// Windows write one.
	SkipBOM bool
	// ArrayOK accepts an array at the top as well as an object.
	ArrayOK bool
	// Shallow keeps the children of the top-level value only
	// (jsonnode.ParseTop): for a caller that hands nested values on as
	// their text.
	Shallow bool
	// KeepBadUTF8 skips the UTF-8 check, for a caller that checks the
	// values it uses itself: their text keeps the bytes that are not
	// UTF-8 as they are.
	KeepBadUTF8 bool
	// Style is how Fault.Got describes the value at the top.
	Style Style
	// What names the document in Fault.Error: "the document" when empty.
	What string
}

// FaultKind is what is wrong with a document as a whole.
type FaultKind uint8

// The faults, in the order Read checks for them.
const (
	TooLarge  FaultKind = iota + 1 // over Options.Max
	NotUTF8                        // a byte that is not UTF-8
	Empty                          // nothing but white space
	Syntax                         // not JSON
	NotObject                      // a value other than an object at the top
)

// Fault is what is wrong with a document as a whole, with what a message
// about it needs.
type Fault struct {
	Kind FaultKind
	// Offset is the byte the fault is at: the first that is not UTF-8,
	// the syntax error, the value at the top.
	Offset int
	// Size is the document's size in bytes (TooLarge).
	Size int
	// Max is the limit it is over (TooLarge).
	Max int
	// Syntax is the parser's error (Syntax, and Empty: the end of input
	// where a value was expected).
	Syntax *jsonnode.SyntaxError
	// Top is the kind of the value at the top, and Got that value
	// described in the Options' Style (NotObject).
	Top jsonnode.Kind
	Got string
	// What names the document (Options.What).
	What string
}

// Error says what is wrong in JSON terms: "the document is empty; want a
// JSON object", "invalid JSON at line 2, column 5: ...".
func (f *Fault) Error() string {
	what := f.What
	if what == "" {
		what = "the document"
	}
	switch f.Kind {
	case TooLarge:
		return fmt.Sprintf("%s is %d bytes, over the %s limit (%d bytes)", what, f.Size, limit(f.Max), f.Max)
	case Empty:
		return what + " is empty; want a JSON object"
	case NotUTF8:
		return fmt.Sprintf("%s is not valid UTF-8 (first bad byte at offset %d)", what, f.Offset)
	case Syntax:
		return f.Syntax.Error()
	}
	return fmt.Sprintf("%s is %s, want a JSON object", what, f.Got)
}

// limit names a size limit as people say it: "1 MiB", "64 KiB", "100-byte".
func limit(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d-byte", n)
}

// Message is the syntax error without its "invalid JSON " lead: "at line
// 2, column 5: unexpected ...", to follow a lead of the caller's own.
func (f *Fault) Message() string {
	if f.Syntax == nil {
		return f.Error()
	}
	return fmt.Sprintf("at line %d, column %d: %s", f.Syntax.Line, f.Syntax.Column, f.Syntax.Msg)
}

// Document is a document read: its text and its tree.
type Document struct {
	// Data is the text parsed: the input, without a byte order mark when
	// Options.SkipBOM dropped one. The tree's offsets are into it.
	Data []byte
	Root jsonnode.Node
}

var bom = []byte("\ufeff")

// Read checks a document and parses it: within Options.Max, not empty,
// UTF-8, JSON, and an object at the top (or what Options accept). The
// first of these that fails is the fault; the others are not checked.
func Read(data []byte, o Options) (Document, *Fault) {
	data, f := o.check(data)
	if f != nil {
		return Document{}, f
	}
	parse := jsonnode.Parse
	if o.Shallow {
		parse = jsonnode.ParseTop
	}
	root, err := parse(data)
	if err != nil {
		return Document{}, o.syntax(data, err)
	}
	if f := o.top(&root); f != nil {
		return Document{}, f
	}
	return Document{Data: data, Root: root}, nil
}

// ReadScoped is Read for a tree used once and dropped
// (jsonnode.ParseScoped): use gets the document only when it has no
// fault, and must not keep any part of the tree after it returns.
func ReadScoped(data []byte, o Options, use func(*Document)) *Fault {
	data, f := o.check(data)
	if f != nil {
		return f
	}
	err := jsonnode.ParseScoped(data, func(root *jsonnode.Node) {
		if f = o.top(root); f == nil {
			use(&Document{Data: data, Root: *root})
		}
	})
	if err != nil {
		return o.syntax(data, err)
	}
	return f
}

// check makes the checks before parsing: the size, white space only, and
// UTF-8.
func (o *Options) check(data []byte) ([]byte, *Fault) {
	if o.SkipBOM {
		data = bytes.TrimPrefix(data, bom)
	}
	switch {
	case o.Max > 0 && len(data) > o.Max:
		return nil, &Fault{Kind: TooLarge, Size: len(data), Max: o.Max, What: o.What}
	case !o.KeepBadUTF8 && !utf8.Valid(data):
		return nil, &Fault{Kind: NotUTF8, Offset: jsonnode.FirstInvalidUTF8(data), What: o.What}
	}
	return data, nil
}

// syntax is the fault of a document the parser refused: Empty when it is
// only white space, else Syntax.
func (o *Options) syntax(data []byte, err error) *Fault {
	var syn *jsonnode.SyntaxError
	if !errors.As(err, &syn) {
		syn = &jsonnode.SyntaxError{Line: 1, Column: 1, Msg: err.Error()}
	}
	f := &Fault{Kind: Syntax, Offset: syn.Offset, Syntax: syn, What: o.What}
	if len(bytes.TrimSpace(data)) == 0 {
		f.Kind = Empty
	}
	return f
}

// top checks the value at the top.
func (o *Options) top(root *jsonnode.Node) *Fault {
	if root.Kind == jsonnode.Object || o.ArrayOK && root.Kind == jsonnode.Array {
		return nil
	}
	return &Fault{Kind: NotObject, Offset: int(root.Offset), Top: root.Kind, Got: Describe(root, o.Style), What: o.What}
}
