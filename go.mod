module memsym

go 1.26

require (
	codeberg.org/go-pdf/fpdf v0.12.0
	github.com/ericlagergren/decimal v0.0.0-20190204014639-71cf34b7c2b5
	github.com/yuin/goldmark v1.8.7
)
