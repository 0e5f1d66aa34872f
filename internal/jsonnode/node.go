// Package jsonnode decodes JSON into a tree that keeps what strict
// validation needs and encoding/json throws away: the order of object
// members, duplicate keys, the exact kind of every value, the literal text of
// numbers, and the byte offset of every value, so a syntax error can name its
// line and column.
package jsonnode

import (
	"strconv"
)

// Kind is the JSON type of a node.
type Kind uint8

// The JSON types.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"null", "boolean", "number", "string", "array", "object"}

// String names the kind as a JSON user would: "string", "array", ...
func (k Kind) String() string { return kindNames[k] }

// Node is one decoded JSON value.
type Node struct {
	// Text is the value of a String and the literal text of a Number.
	Text string
	// Items are the elements of an Array.
	Items []Node
	// Members are the members of an Object, in document order, duplicates
	// included.
	Members []Member
	// Offset and End are the byte offsets where the value starts and ends
	// in the input: input[Offset:End] is its JSON text.
	Offset, End int32
	Kind        Kind
	// True is the value of a Bool.
	True bool
}

// Member is one "key": value pair of an object.
type Member struct {
	Key   string
	Value Node
}

// Float returns a Number's value. It fails only for numbers out of the range
// of float64.
func (n *Node) Float() (float64, error) {
	return strconv.ParseFloat(n.Text, 64)
}

// Get returns the value of the first member named key, or nil.
func (n *Node) Get(key string) *Node {
	for i := range n.Members {
		if n.Members[i].Key == key {
			return &n.Members[i].Value
		}
	}
	return nil
}

// Value converts the node to the values encoding/json would produce when
// decoding into an interface: nil, bool, float64, string, []any and
// map[string]any (the last duplicate key wins). A number out of float64
// range becomes its literal text.
func (n *Node) Value() any {
	switch n.Kind {
	case Bool:
		return n.True
	case Number:
		f, err := n.Float()
		if err != nil {
			return n.Text
		}
		return f
	case String:
		return n.Text
	case Array:
		out := make([]any, len(n.Items))
		for i := range n.Items {
			out[i] = n.Items[i].Value()
		}
		return out
	case Object:
		out := make(map[string]any, len(n.Members))
		for i := range n.Members {
			out[n.Members[i].Key] = n.Members[i].Value.Value()
		}
		return out
	}
	return nil
}
