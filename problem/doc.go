// Package problem is elicit's one error type for "the input is wrong": an
// ordered list of problems, each naming where (a path such as
// fields[2].options) and what is wrong, ideally with what would be right.
//
// Validation in every elicit package collects all problems in declaration
// order and returns them together as a List, so a caller can fix everything
// in one round. The CLI maps a List to exit code 1; the MCP server returns it
// as {"success":false,"problems":[...]}.
package problem
