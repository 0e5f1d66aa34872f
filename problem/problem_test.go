package problem

import (
	"errors"
	"fmt"
	"strings"
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

// TestCapped: a list is shown with at most Max problems and an entry
// counting the rest; lists merged from checks that capped their own are
// cut once, and count every problem.
func TestCapped(t *testing.T) {
	many := func(n int) List {
		l := make(List, n)
		for i := range l {
			l[i] = Problem{Path: "p", Message: "m"}
		}
		return l
	}
	tests := []struct {
		name  string
		l     List
		shown int
		more  int
	}{
		{name: "under the cap", l: many(3), shown: 3},
		{name: "at the cap", l: many(Max), shown: Max},
		{name: "over the cap", l: many(Max + 5), shown: Max, more: 5},
		{name: "a capped list and more", l: append(append(many(Max), MoreProblems(7)), many(2)...), shown: Max, more: 9},
		{name: "two capped lists", l: append(append(append(many(Max), MoreProblems(7)), many(Max)...), MoreProblems(1)), shown: Max, more: 7 + Max + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.l.Capped()
			s := tt.l.Strings()
			wantLen := tt.shown
			if tt.more > 0 {
				wantLen++
			}
			if len(got) != wantLen || len(s) != wantLen {
				t.Fatalf("Capped has %d entries, Strings %d; want %d", len(got), len(s), wantLen)
			}
			if tt.l.Count() != tt.shown+tt.more {
				t.Errorf("Count = %d, want %d", tt.l.Count(), tt.shown+tt.more)
			}
			if tt.more == 0 {
				return
			}
			want := fmt.Sprintf("… and %d more problems (fix the ones above and check again)", tt.more)
			if last := s[len(s)-1]; last != want {
				t.Errorf("last = %q, want %q", last, want)
			}
			if head := strings.SplitN(tt.l.Error(), "\n", 2)[0]; head != fmt.Sprintf("%d problems:", tt.shown+tt.more) {
				t.Errorf("Error starts %q", head)
			}
			if n := strings.Count(tt.l.Error(), "\n"); n != wantLen {
				t.Errorf("Error has %d lines after its first, want %d", n, wantLen)
			}
		})
	}
}
