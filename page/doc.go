// Package page draws a program's memory model as one interactive HTML
// page: a slider and a number box for each dimension, a stored type for
// each parameter group and a memory budget, and, as they move, the
// parameters, inputs, outputs, the peak and the operation that first
// reaches it, the needs and where they cross the budget, the live bytes
// over the operations with the calls as bands, and the network as boxes
// coloured by each call's share of the peak. Given where the program runs
// (Options.Runs), each slider stops where it stops running, and the page
// says why beside it. A model without dimensions (a recording whose header
// has "dims": {}) has no sliders: the page shows its one point's figures.
// Where the needs cross the budget is found exactly from the polynomials,
// in time that grows with their degree and the logarithm of a slider's
// range, not with the range: a slider may run to 2^53 − 1.
//
// The page is one file: its style, script and data are inline and it
// fetches nothing. Its script counts from the model's polynomials in exact
// rational arithmetic on BigInts, as memsym does in Go; no byte figure it
// shows passes through floating point (those rounded to GiB, MiB or KiB
// are marked ≈ beside the exact ones), and each is written as memsym's
// commands write it (doc.Group): a fraction of a byte as its exact decimal
// where it has one (189 180.5), else as a fraction (7/3). Below 600 px
// wide (a phone's), its tables and controls stack to fit the window. Its data and the meaning of each
// field are in data.go; the stored types' sizes in StoredType.Bytes.
//
// Opened with #test=SEED,N after its address, the page sets its controls N
// times at random as a user would, dispatching input events, and writes
// what it then shows into the DOM as JSON: memsym's M4 test loads it so in
// headless Chromium and compares every figure with Page.At, which counts
// the same in Go.
package page
