package doc_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"memsym/doc"
)

func ExampleAndList() {
	fmt.Println(doc.AndList([]string{"B"}))
	fmt.Println(doc.AndList([]string{"B", "T"}))
	fmt.Println(doc.AndList([]string{"B", "S", "T"}))
	// Output:
	// B
	// B and T
	// B, S and T
}

func ExamplePlural() {
	fmt.Println(doc.Plural(1, "pair", "pairs"))
	fmt.Println(doc.Plural(2, "pair", "pairs"))
	// Output:
	// 1 pair
	// 2 pairs
}

func TestAndList(t *testing.T) {
	for n := 0; n <= 5; n++ {
		words := make([]string, n)
		for i := range words {
			words[i] = string(rune('A' + i))
		}
		got := doc.AndList(words)
		// Every word appears once, in order; "and" joins the last two
		// and only them; commas separate the others.
		if n == 0 {
			if got != "" {
				t.Errorf("AndList() = %q, want \"\"", got)
			}
			continue
		}
		want := words[0]
		for i := 1; i < n; i++ {
			sep := ", "
			if i == n-1 {
				sep = " and "
			}
			want += sep + words[i]
		}
		if got != want {
			t.Errorf("AndList(%q) = %q, want %q", words, got, want)
		}
		if c := strings.Count(got, " and "); n > 1 && c != 1 {
			t.Errorf("AndList(%q) = %q has %d \"and\"s", words, got, c)
		}
	}
}

func TestPluralAndInflect(t *testing.T) {
	for _, c := range []struct {
		n          int
		plural, is string
	}{
		{0, "0 launches", "are"},
		{1, "1 launch", "is"},
		{2, "2 launches", "are"},
		{1000, "1000 launches", "are"},
		{-1, "-1 launches", "are"},
	} {
		if got := doc.Plural(c.n, "launch", "launches"); got != c.plural {
			t.Errorf("Plural(%d) = %q, want %q", c.n, got, c.plural)
		}
		if got := doc.Inflect(c.n, "is", "are"); got != c.is {
			t.Errorf("Inflect(%d) = %q, want %q", c.n, got, c.is)
		}
	}
}

func TestSpell(t *testing.T) {
	for n, want := range map[int]string{0: "no", 1: "one", 4: "four", 12: "twelve", 13: "13", 1234: "1234", -1: "-1"} {
		if got := doc.Spell(n); got != want {
			t.Errorf("Spell(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCapital(t *testing.T) {
	for in, want := range map[string]string{"": "", "four buffers": "Four buffers", "One": "One", "x": "X"} {
		if got := doc.Capital(in); got != want {
			t.Errorf("Capital(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestJoined(t *testing.T) {
	for _, c := range []struct {
		sep   string
		items []any
		want  []any
	}{
		{", ", nil, nil},
		{", ", []any{"B"}, []any{"B"}},
		{", ", []any{"B", "T"}, []any{"B", " and ", "T"}},
		{"; ", []any{"B", 2, "T"}, []any{"B", "; ", 2, " and ", "T"}},
		{", ", []any{[]any{1, " byte"}, []any{2, " bytes"}}, []any{1, " byte", " and ", 2, " bytes"}},
	} {
		if got := doc.Joined(c.sep, c.items...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Joined(%q, %v) = %v, want %v", c.sep, c.items, got, c.want)
		}
	}
}
