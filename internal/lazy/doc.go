// Package lazy holds values built on first use that cost nothing at
// package initialisation.
//
// sync.OnceValue does the same, but a package-level
//
//	var table = sync.OnceValue(buildTable)
//
// is a call that runs at initialisation, in every process of the binary,
// whether or not the table is ever used. The same variable written
//
//	var table = lazy.Of(buildTable)
//
// is static data the compiler lays out in the binary: Of is small enough
// to inline, and its result is a composite literal. That holds when the
// function given is a named function; a function literal is a closure
// the initialisation builds.
//
// As with sync.OnceValue, a function that panics makes every Get panic
// with the same value.
package lazy
