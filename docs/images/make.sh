#!/bin/sh
# Regenerates README's images from today's chapter of the bundled course GPT:
# the PDF's page 3, the top of the HTML page, the candidates' TikZ figure
# compiled alone, and the live bytes' SVG figure of the Markdown. It needs
# pdflatex, pdftoppm and chromium; `make images` runs it.
set -eu
GO=${1:-go}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
"$GO" run ./cmd/memsym explain --program gpt-course -o "$work/ch" >/dev/null

# The PDF's page 3: the candidates, their holders and the confirmations.
pdftoppm -f 3 -l 3 -r 80 -png -singlefile "$work/ch/chapter13.pdf" "$here/chapter13-pdf"

# A TikZ figure, compiled alone: a cropped picture a column wide.
(cd "$work/ch" && pdflatex -interaction=nonstopmode -halt-on-error chapter13-candidates.tex >/dev/null)
pdftoppm -r 160 -png -singlefile "$work/ch/chapter13-candidates.pdf" "$here/chapter13-tikz"

# The HTML page's top, and the Markdown's live-bytes figure, as a browser
# shows them.
shot() { # file, width, height, png
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size="$2,$3" --screenshot="$4" "file://$1" >/dev/null 2>&1
}
shot "$work/ch/chapter13.html" 900 1300 "$here/chapter13-html.png"
shot "$work/ch/chapter13-live.svg" 640 360 "$here/chapter13-md.png"
echo "make images: wrote chapter13-pdf.png, chapter13-tikz.png, chapter13-html.png and chapter13-md.png into docs/images"
