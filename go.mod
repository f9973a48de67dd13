module memsym

go 1.26

require (
	codeberg.org/go-pdf/fpdf v0.12.0
	github.com/yuin/goldmark v1.8.7
)

require github.com/cockroachdb/apd/v3 v3.2.3
