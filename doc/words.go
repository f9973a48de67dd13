package doc

import (
	"fmt"
	"strings"
)

// The words memsym's prose is made of, in the chapter and on the command
// line alike, so that both say a thing the same way.

// AndList joins words as a reader does: "B", "B and T", "B, S and T";
// no words make "".
func AndList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// Joined joins items as AndList joins words, sep between them and " and "
// before the last, for prose whose items are inlines, numbers or text: an
// item that is a []any is spliced in whole. Joined(", ", "B", "S", "T")
// is "B", ", ", "S", " and ", "T".
func Joined(sep string, items ...any) []any {
	var out []any
	for i, item := range items {
		switch {
		case i > 0 && i == len(items)-1:
			out = append(out, " and ")
		case i > 0:
			out = append(out, sep)
		}
		if parts, ok := item.([]any); ok {
			out = append(out, parts...)
		} else {
			out = append(out, item)
		}
	}
	return out
}

// Plural writes a count in digits and the noun that agrees with it:
// Plural(1, "pair", "pairs") is "1 pair", Plural(2, "pair", "pairs") is
// "2 pairs" and Plural(0, "pair", "pairs") is "0 pairs".
func Plural(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, Inflect(n, one, many))
}

// Inflect returns the form of a word that agrees with a count of n: one
// when n is 1, else many. It serves nouns ("launch", "launches") and verbs
// ("disagrees", "disagree") alike.
func Inflect(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// smallCounts are the counts Spell writes as words.
var smallCounts = []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}

// Spell writes a count from 0 to 12 as a word ("no", "one", "four") and any
// other in digits ("13"), as prose writes small counts.
func Spell(n int) string {
	if n >= 0 && n < len(smallCounts) {
		return smallCounts[n]
	}
	return fmt.Sprint(n)
}

// Capital returns s with its first letter in upper case, to begin a
// sentence: Capital("four buffers") is "Four buffers".
func Capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
