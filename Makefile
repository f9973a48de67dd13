# memsym's tasks. `make test` is the whole test suite, as CI runs it.
GO ?= go

.PHONY: test vet fmt bench fuzz build clean

build:
	$(GO) build -o memsym ./cmd/memsym

test:
	$(GO) test -race -count=1 ./...

vet:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change: $$out"; exit 1; fi

# Benchmarks: memsym against its performance targets, medians of several
# runs, 5 to 10 minutes on 2 cores; see BENCHMARKS.md and bench/README.md.
# PYTHON=/usr/bin/python3 picks the python whose SymPy is the peer.
bench:
	$(GO) run ./bench/run -go "$(GO)" -python "$(or $(PYTHON),python3)"

# Each fuzz target for a while; FUZZTIME=10m for the long runs.
FUZZTIME ?= 30s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./poly
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) ./record

clean:
	rm -f memsym bench.out
