// Package publicapi holds the check that the module's public API can be
// used from outside it: no exported name of a package outside internal/
// takes, returns or holds a type that lives under internal/, which other
// modules cannot import.
package publicapi
