// Package explain writes up a program's memory for people. Gather records
// and models a program as a chapter asks (the model at one set of
// constants, the counts at a point, the crossovers confirmed by
// recordings, the checks off the grid, the crossovers at other
// constants); Build turns that into the chapter's Input, plain data; and
// Chapter writes the chapter, a doc.Document of sections, paragraphs,
// tables, lists and figures that the reports package renders in each
// format. The chapter says only what was shown: what memsym proved, found
// at fixed values, checked or left unchecked, each said as such.
package explain
