// Package jsonenc appends JSON as encoding/json writes it with HTML escaping
// off, without reflection.
//
// Every CLI call is a process of its own, and encoding/json builds an
// encoder for each type it meets, at every start, by reflecting over the
// type's fields: for `elicit form render` that was about a million
// instructions, more than the rest of the call's own work
// (docs/decisions.md, "Start-up"). The few types written on that path have
// an AppendJSON method built on these functions, and their tests compare
// its result byte for byte with what encoding/json writes by reflection.
package jsonenc
