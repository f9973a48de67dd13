package page

import (
	"bytes"
	"fmt"
	"html"
	"math/big"
	"strings"

	"memsym/poly"
)

// Percent writes share's part of peak in per cent, rounded half up to one
// decimal in exact arithmetic: "87.5%", "<0.1%" for a share that rounds to
// 0.0 without being 0, "0%" for none, and "–" when peak is 0. The page's
// script writes the same.
func Percent(share, peak poly.Rat) string {
	if peak.Sign() <= 0 {
		return "–"
	}
	if share.Sign() == 0 {
		return "0%"
	}
	// k = ⌊1000·share/peak + 1/2⌋ = ⌊(2000·a·d + b·c) / (2·b·c)⌋ for
	// share = a/b and peak = c/d.
	a, b, c, d := share.Num(), share.Den(), peak.Num(), peak.Den()
	num := new(big.Int).Mul(a, d)
	num.Mul(num, big.NewInt(2000))
	bc := new(big.Int).Mul(b, c)
	num.Add(num, bc)
	k, _ := new(big.Int).DivMod(num, bc.Mul(bc, big.NewInt(2)), new(big.Int))
	if k.Sign() == 0 {
		return "<0.1%"
	}
	ten := big.NewInt(10)
	whole, tenth := new(big.Int).DivMod(k, ten, new(big.Int))
	return whole.String() + "." + tenth.String() + "%"
}

// palette is a sequential, colour-blind-safe scale (ColorBrewer's
// Oranges), from no share to the whole peak.
var palette = [][3]float64{{255, 245, 235}, {253, 208, 162}, {253, 141, 60}, {217, 72, 1}, {127, 39, 4}}

// shareColour returns the colour of a box holding share of peak, and
// whether its text should be white. Colours are not exact figures: they
// are computed in floating point, as the page's script does.
func shareColour(share, peak poly.Rat) ([3]int, bool) {
	f := 0.0
	if peak.Sign() > 0 {
		f = share.Quo(peak).Float64()
	}
	f = min(max(f, 0), 1)
	pos := f * float64(len(palette)-1)
	i := min(int(pos), len(palette)-2)
	t := pos - float64(i)
	var rgb [3]int
	for j := range rgb {
		rgb[j] = int(palette[i][j] + (palette[i+1][j]-palette[i][j])*t + 0.5)
	}
	return rgb, f > 0.6
}

// frameFill is the entry's frame's colour.
var frameFill = [3]int{246, 246, 246}

// SVG draws the network with each call's share of the peak: shares are
// indexed like the calls, peak is their whole. The drawing is a
// standalone SVG image.
func (n *Network) SVG(shares []poly.Rat, peak poly.Rat) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="12">`+"\n", n.W, n.H, n.W, n.H)
	for _, box := range n.Boxes {
		fill, white := frameFill, false
		share := ""
		if box.Call >= 0 {
			fill, white = shareColour(shares[box.Call], peak)
			share = Percent(shares[box.Call], peak)
		}
		text := "#000"
		if white {
			text = "#fff"
		}
		fmt.Fprintf(&b, `<rect x="%d.5" y="%d.5" width="%d" height="%d" rx="3" fill="rgb(%d,%d,%d)" stroke="#555"/>`+"\n", box.X, box.Y, box.W-1, box.H-1, fill[0], fill[1], fill[2])
		ty := box.Y + 16
		fmt.Fprintf(&b, `<text x="%d" y="%d" fill="%s">%s</text>`+"\n", box.X+netPad, ty, text, html.EscapeString(box.Title))
		if share != "" {
			fmt.Fprintf(&b, `<text x="%d" y="%d" fill="%s" text-anchor="end" font-weight="bold">%s</text>`+"\n", box.X+box.W-netPad, ty, text, html.EscapeString(share))
		}
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// TikZ draws the network as a standalone LaTeX document of one
// tikzpicture, 1 px of the layout being 0.5 pt.
func (n *Network) TikZ(shares []poly.Rat, peak poly.Rat) []byte {
	var b bytes.Buffer
	b.WriteString("\\documentclass[tikz]{standalone}\n\\begin{document}\n")
	b.WriteString("\\begin{tikzpicture}[x=0.5pt,y=-0.5pt,font=\\sffamily\\scriptsize]\n")
	for i, box := range n.Boxes {
		fill, white := frameFill, false
		share := ""
		if box.Call >= 0 {
			fill, white = shareColour(shares[box.Call], peak)
			share = Percent(shares[box.Call], peak)
		}
		fmt.Fprintf(&b, "\\definecolor{box%d}{RGB}{%d,%d,%d}\n", i, fill[0], fill[1], fill[2])
		fmt.Fprintf(&b, "\\filldraw[fill=box%d,draw=black!65,rounded corners=1.5pt] (%d,%d) rectangle (%d,%d);\n", i, box.X, box.Y, box.X+box.W-1, box.Y+box.H-1)
		text := ""
		if white {
			text = ",text=white"
		}
		fmt.Fprintf(&b, "\\node[anchor=base west,inner sep=0%s] at (%d,%d) {%s};\n", text, box.X+netPad, box.Y+16, texEscape(box.Title))
		if share != "" {
			fmt.Fprintf(&b, "\\node[anchor=base east,inner sep=0,font=\\sffamily\\scriptsize\\bfseries%s] at (%d,%d) {%s};\n", text, box.X+box.W-netPad, box.Y+16, texEscape(share))
		}
	}
	b.WriteString("\\end{tikzpicture}\n\\end{document}\n")
	return b.Bytes()
}

// texEscape writes s for LaTeX text.
func texEscape(s string) string {
	r := strings.NewReplacer(
		`\`, `\textbackslash{}`, `{`, `\{`, `}`, `\}`, `$`, `\$`, `&`, `\&`, `#`, `\#`,
		`%`, `\%`, `_`, `\_`, `^`, `\textasciicircum{}`, `~`, `\textasciitilde{}`,
		"×", `$\times$`, "–", `--`, "<", `\textless{}`,
	)
	return r.Replace(s)
}
