package lazy

import "sync"

// A Value is a T built by its function on the first call of Get.
type Value[T any] struct {
	once  sync.Once
	build func() T
	v     T
	p     any // what build panicked with, if it did
}

// Of returns a Value that build builds on first use.
func Of[T any](build func() T) *Value[T] { return &Value[T]{build: build} }

// Get returns the value, building it on the first call. Calls from several
// goroutines wait for the one that builds it. If build panics, Get panics
// with the same value, on that call and every later one, as
// sync.OnceValue does: no caller gets a zero value for a built one.
func (l *Value[T]) Get() T {
	l.once.Do(l.fill)
	if l.p != nil {
		panic(l.p)
	}
	return l.v
}

func (l *Value[T]) fill() {
	defer func() {
		if p := recover(); p != nil {
			l.p = p
			panic(p)
		}
	}()
	l.v = l.build()
}
