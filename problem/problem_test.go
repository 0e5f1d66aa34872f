package problem

import (
	"errors"
	"testing"
)

func TestList(t *testing.T) {
	var l List
	if l.Err() != nil {
		t.Fatal("an empty list is no error")
	}
	l.Add("fields[0].id", "duplicate id %q", "a")
	l.Add("", "form is not valid JSON")
	if got, want := l.Error(), "2 problems:\nfields[0].id: duplicate id \"a\"\nform is not valid JSON"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	var back List
	if !errors.As(l.Err(), &back) || len(back) != 2 {
		t.Errorf("errors.As did not recover the list: %v", back)
	}
	if got := l[:1].Error(); got != `fields[0].id: duplicate id "a"` {
		t.Errorf("one problem: %q", got)
	}
}

func TestListUnwrap(t *testing.T) {
	sentinel := errors.New("sentinel")
	l := List{{Path: "a", Message: "x"}, {Path: "b", Message: "y", Err: sentinel}}
	if !errors.Is(l, sentinel) {
		t.Error("errors.Is does not reach a problem's Err")
	}
	if errors.Is(l[:1], sentinel) {
		t.Error("errors.Is matches a list without the error")
	}
}
