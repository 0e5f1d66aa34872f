package lazy

import (
	"sync"
	"sync/atomic"
	"testing"
)

var builds atomic.Int32

func buildTable() map[string]int {
	builds.Add(1)
	return map[string]int{"a": 1, "b": 2}
}

var table = Of(buildTable)

// TestGetBuildsOnce checks that concurrent first calls build the value
// once and all see it.
func TestGetBuildsOnce(t *testing.T) {
	if n := builds.Load(); n != 0 {
		t.Fatalf("built %d times before the first Get", n)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := table.Get()["b"]; got != 2 {
				t.Errorf(`table.Get()["b"] = %d, want 2`, got)
			}
		})
	}
	wg.Wait()
	if n := builds.Load(); n != 1 {
		t.Fatalf("built %d times, want 1", n)
	}
}
