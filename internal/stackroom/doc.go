// Package stackroom gives the program's main goroutine, before any other
// package initialises, the stack that initialisation and a command need.
//
// A goroutine starts with a small stack, which the runtime doubles, by
// copying, whenever a call would overflow it. Each copy walks every frame
// on the stack and reads each function's stack maps and frame sizes from
// the binary's tables: pages of the binary a call otherwise never reads,
// each a page fault, and the deeper the stack, the more of them. elicit's
// main goroutine was copied three times in every call, twice at full depth
// inside package initialisation (the MCP SDK's dependencies) and once in
// the command.
//
// Imported for its side effect by cmd/elicit, this package's init grows the
// stack once, while it holds three frames. It imports nothing, so Go's
// initialisation order (packages sorted by import path, each once what it
// imports is done) runs it before any package whose init goes deep.
//
// grow asks for the room with one frame of 48 KiB that is never
// written (the array is declared in a branch never taken), so the memory
// is only touched as calls use it.
package stackroom
