package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"weak"

	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/internal/strictjson"
	"github.com/elicit/elicit/problem"
)

// Validate checks a form against every definition rule, the same rules as
// Parse: it writes the form as its canonical JSON and decodes that with
// Parse's decoder, so there is one set of rules. The error is a
// problem.List naming every problem (paths as in the JSON: fields[0].type).
//
// A form from Parse or a template cast is valid; call Validate on one built
// or changed in Go code. Collect, SelectSurface and the surfaces' renderers
// check the form (see Check) and refuse an invalid one with its problems.
func (f *Form) Validate() error {
	var probs problem.List
	if f == nil {
		probs.Add("form", "missing (a nil *Form; build one with Parse or a template cast)")
		return probs
	}
	data, err := json.Marshal(f)
	if err != nil {
		return unencodable(f)
	}
	// encoding/json writes an invalid UTF-8 byte as the escape \ufffd:
	// only then look for one.
	if bytes.Contains(data, []byte(`\ufffd`)) {
		if probs := invalidUTF8(reflect.ValueOf(*f), ""); probs != nil {
			return probs
		}
	}
	// Parse's size limit is for documents read, not for forms built here.
	var perr error
	read := strictjson.Options{Style: strictjson.Terse, What: "form"}
	if fault := strictjson.ReadScoped(data, read, func(doc *strictjson.Document) { _, perr = decodeForm(&doc.Root) }); fault != nil {
		return docProblem(fault) // not reached: json.Marshal wrote it
	}
	return perr
}

// unencodable names the fields json.Marshal cannot write (a NaN or an
// infinite number, a value of a type JSON has no form for).
func unencodable(f *Form) problem.List {
	var probs problem.List
	for i := range f.Fields {
		if _, err := json.Marshal(&f.Fields[i]); err != nil {
			probs.Add(fieldLoc(i).String(), "cannot be written as JSON (%s); a field holds strings, finite numbers, lists and maps",
				strings.TrimPrefix(err.Error(), "json: "))
		}
	}
	if probs == nil {
		probs.Add("form", "cannot be written as JSON; a form holds strings, finite numbers, lists and maps")
	}
	return probs
}

// invalidUTF8 names every string under v that is not valid UTF-8, at its
// JSON path.
func invalidUTF8(v reflect.Value, path string) problem.List {
	var probs problem.List
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.String:
			if s := v.String(); !utf8.ValidString(s) {
				probs.Add(path, "is not valid UTF-8 (first bad byte at offset %d); text must be UTF-8", jsonnode.FirstInvalidUTF8([]byte(s)))
			}
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), path)
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), path+"["+strconv.Itoa(i)+"]")
			}
		case reflect.Map:
			iter := v.MapRange()
			for iter.Next() {
				k := fmt.Sprint(iter.Key().Interface())
				if !utf8.ValidString(k) {
					probs.Add(path, "has a key that is not valid UTF-8 (%q); text must be UTF-8", k)
				}
				walk(iter.Value(), path+"."+k)
			}
		case reflect.Struct:
			t := v.Type()
			for i := 0; i < t.NumField(); i++ {
				sf := t.Field(i)
				if !sf.IsExported() {
					continue
				}
				name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
				p := path
				if name != "" && name != "-" {
					if p != "" {
						p += "."
					}
					p += name
				}
				walk(v.Field(i), p)
			}
		}
	}
	walk(v, path)
	return probs
}

// ProblemStrings lists the problems of err, one string each ("path:
// message"): every problem of a problem.List, else err's message.
func ProblemStrings(err error) []string {
	var probs problem.List
	if errors.As(err, &probs) {
		return probs.Strings()
	}
	return []string{err.Error()}
}

// valid remembers the forms known to be valid (from Parse, a template cast
// or a successful check), each with its outline (see outline), so that
// checking a parsed form again costs an outline, not a validation: the
// entry points check the form on every call, and a large form is read in
// one pass. An entry goes when its form is collected.
var valid sync.Map // weak.Pointer[Form] -> uint64

// outlineSeed seeds outline's hash, once per process.
var outlineSeed = maphash.MakeSeed()

// outline hashes what code most often changes in a form: the title, the
// number of fields and each field's id, type, number of options and
// requiredness. A change to anything else of a parsed form (an option's
// text, a default) is not noticed: call Validate after one.
func outline(f *Form) uint64 {
	var h maphash.Hash
	h.SetSeed(outlineSeed)
	h.WriteString(f.Title)
	for i := range f.Fields {
		fl := &f.Fields[i]
		h.WriteByte(0)
		h.WriteString(fl.ID)
		h.WriteByte(0)
		h.WriteString(string(fl.Type))
		h.WriteByte(byte(len(fl.Options)))
		if fl.Required {
			h.WriteByte(1)
		}
	}
	return h.Sum64()
}

func markValid(f *Form) {
	wp := weak.Make(f)
	if _, loaded := valid.Swap(wp, outline(f)); !loaded {
		runtime.AddCleanup(f, func(wp weak.Pointer[Form]) { valid.Delete(wp) }, wp)
	}
}

// Check is Validate for the surfaces' entry points: a form known to be valid
// (from Parse, a template cast or an earlier Check) whose ids, types and
// number of fields and options have not changed since is not validated
// again. Call Validate after changing anything else of a form.
func (f *Form) Check() error {
	if f != nil {
		if sum, ok := valid.Load(weak.Make(f)); ok && sum.(uint64) == outline(f) {
			return nil
		}
	}
	if err := f.Validate(); err != nil {
		return err
	}
	markValid(f)
	return nil
}
