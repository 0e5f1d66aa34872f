package lazy_test

import (
	"fmt"

	"github.com/elicit/elicit/internal/lazy"
)

func buildSquares() []int {
	fmt.Println("building")
	s := make([]int, 5)
	for i := range s {
		s[i] = i * i
	}
	return s
}

var squares = lazy.Of(buildSquares)

func Example() {
	fmt.Println(squares.Get()[3])
	fmt.Println(squares.Get()[4])
	// Output:
	// building
	// 9
	// 16
}
