// Command hello is the yardstick of BenchmarkStartup: the smallest Go
// program that prints a line, built with the same flags as elicit.
package main

import "fmt"

func main() { fmt.Println("hello, world") }
