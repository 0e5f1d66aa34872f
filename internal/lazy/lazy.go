package lazy

import "sync"

// A Value is a T built by its function on the first call of Get.
type Value[T any] struct {
	once  sync.Once
	build func() T
	v     T
}

// Of returns a Value that build builds on first use.
func Of[T any](build func() T) *Value[T] { return &Value[T]{build: build} }

// Get returns the value, building it on the first call. Calls from several
// goroutines wait for the one that builds it.
func (l *Value[T]) Get() T {
	l.once.Do(l.fill)
	return l.v
}

func (l *Value[T]) fill() { l.v = l.build() }
