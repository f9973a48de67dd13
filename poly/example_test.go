package poly_test

import (
	"fmt"

	"memsym/poly"
)

func ExampleParse() {
	p, err := poly.Parse("8*T^2 + 12288*B*T + 48*B*T^2")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Vars())
	fmt.Println(p.ASCII())

	_, err = poly.Parse("B T")
	fmt.Println(err)
	// Output:
	// [T B]
	// 48*T^2*B + 8*T^2 + 12288*T*B
	// column 3: expected '*', '+', '-' or the end (found "T")
}

func ExamplePoly_String() {
	p, _ := poly.Parse("48*B*T^2 + 12288*B*T + 8*T^2")
	fmt.Println(p)
	fmt.Println(p.LaTeX())
	q, _ := poly.Parse("-3/2*T + x")
	fmt.Println(q)
	// Output:
	// 48 · B · T² + 12288 · B · T + 8 · T²
	// 48\,B\,T^{2} + 12288\,B\,T + 8\,T^{2}
	// −3/2 · T + x
}

func ExamplePoly_Eval() {
	peak, _ := poly.Parse("27648*B*T + 8*T^2")
	bytes, _ := peak.EvalInt(map[string]int64{"B": 16, "T": 256})
	fmt.Println(bytes)
	_, err := peak.EvalInt(map[string]int64{"B": 16})
	fmt.Println(err)
	// Output:
	// 113770496
	// no value for T
}

func ExamplePoly_Shift() {
	// 144·B·T² − 21504·B·T is at least 0 wherever B ≥ 1 and T ≥ 1 if,
	// with B = 1 + b and T = 1 + t, no coefficient is negative.
	d, _ := poly.Parse("144*B*T^2 - 21504*B*T")
	fmt.Println(d.Shift(poly.Int(1)))
	// Output:
	// 144 · B · T² − 21216 · B · T + 144 · T² − 21360 · B − 21216 · T − 21360
}

func ExamplePoly_Collect() {
	p, _ := poly.Parse("48*B*T^2 + 12288*B*T + 8*T^2")
	for i, c := range p.Collect("T") {
		fmt.Printf("T^%d: %s\n", i, c)
	}
	// Output:
	// T^0: 0
	// T^1: 12288 · B
	// T^2: 48 · B + 8
}
