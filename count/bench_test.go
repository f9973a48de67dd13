package count

import (
	"testing"
)

// BenchmarkCount counts the course GPT with 5000 blocks.
func BenchmarkCount(b *testing.B) {
	rec := courseGPT(b, 5000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		At(rec)
	}
}

// BenchmarkPlace places the course GPT with 5000 blocks.
func BenchmarkPlace(b *testing.B) {
	rec := courseGPT(b, 5000)
	lives := Lifetimes(rec)
	b.ResetTimer()
	for b.Loop() {
		Place(rec, lives)
	}
}

// BenchmarkPlaceStep places a training step of the course GPT with 200
// blocks (31 669 records), whose stored activations mostly live together:
// the quadratic case of Place.
func BenchmarkPlaceStep(b *testing.B) {
	rec := courseGPTStep(b, 200)
	lives := Lifetimes(rec)
	b.ResetTimer()
	for b.Loop() {
		Place(rec, lives)
	}
}
