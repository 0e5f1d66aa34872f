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

func buildNothing() int { panic("no table") }

var broken = Of(buildNothing)

// TestGetPanicsAgain checks that a build that panics makes every Get
// panic with its value, not only the first (sync.Once alone would let the
// later calls return 0).
func TestGetPanicsAgain(t *testing.T) {
	for call := 1; call <= 2; call++ {
		func() {
			defer func() {
				if p := recover(); p != "no table" {
					t.Errorf("Get, call %d: recovered %v, want the build's panic %q", call, p, "no table")
				}
			}()
			v := broken.Get()
			t.Errorf("Get, call %d: returned %d", call, v)
		}()
	}
}
