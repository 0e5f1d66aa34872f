package method

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestChoose(t *testing.T) {
	sel, err := Default().Select(Query{Phase: "forge:3", Title: "Architecture Design", Text: "comparison"})
	if err != nil {
		t.Fatal(err)
	}
	empty, _ := Default().Select(Query{Phase: "plan:9", Title: "x"})
	tests := []struct {
		name string
		sel  *Selection
		nums []int
		want []int
		err  string
	}{
		{"one", sel, []int{20}, []int{20}, ""},
		{"several keep score order", sel, []int{33, 11}, []int{11, 33}, ""},
		{"none is refused", sel, nil, nil, "choose: at least one method must be selected (one of 11, 20, 3, 33)"},
		{"not a candidate", sel, []int{11, 47}, nil, "choose: method 47 is not among the candidates (11, 20, 3, 33)"},
		{"nothing to choose", empty, []int{1}, nil, "no methods to choose from: No methods match phase plan:9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.sel.Choose(tt.nums)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var nums []int
			for _, c := range got {
				nums = append(nums, c.Method.Num)
			}
			if diff := cmp.Diff(tt.want, nums); diff != "" {
				t.Errorf("chosen (-want +got):\n%s", diff)
			}
		})
	}
	if q, err := sel.Quick(); err != nil || len(q) != 1 || q[0].Method.Num != 11 {
		t.Errorf("Quick = %v, %v; want method 11 alone", q, err)
	}
	if _, err := empty.Quick(); err == nil {
		t.Error("Quick on NO_MATCH succeeded")
	}
}

func TestNoMatchNotice(t *testing.T) {
	tests := []struct {
		q    Query
		want string
	}{
		{Query{Title: "Rollout \x1b[31mplan"}, "No elicitation methods matched for section 'Rollout  [31mplan' — proceeding without method injection."},
		{Query{Manual: true}, "No methods match your current context. Would you like to browse the full registry?"},
	}
	for _, tt := range tests {
		if got := NoMatchNotice(tt.q); got != tt.want {
			t.Errorf("NoMatchNotice(%+v) = %q, want %q", tt.q, got, tt.want)
		}
	}
}
