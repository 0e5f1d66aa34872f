package ask

import (
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
)

func BenchmarkRender(b *testing.B) {
	f, err := form.Parse(formtest.Bench(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		Render(f)
	}
}
