# memsym's tasks. `make test` is the whole test suite, as CI runs it.
GO ?= go

.PHONY: test vet fmt bench pgo fuzz build clean images page-image

build:
	$(GO) build -o memsym ./cmd/memsym

test:
	$(GO) test -race -count=1 ./...

# The module and its tests must build on a 32-bit machine too (an int of
# 32 bits): vetted for 386 as well, which compiles every test.
vet:
	$(GO) vet ./...
	GOARCH=386 $(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change: $$out"; exit 1; fi

# Benchmarks: memsym against its performance targets, medians of several
# runs, 5 to 10 minutes on 2 cores; see BENCHMARKS.md and bench/README.md.
# PYTHON=/usr/bin/python3 picks the python whose SymPy is the peer.
bench:
	$(GO) run ./bench/run -go "$(GO)" -python "$(or $(PYTHON),python3)"

# The CPU profile Go optimizes memsym's builds by (profile-guided
# optimization, cmd/memsym/default.pgo): memsym's usual long runs, profiled
# (bench/run -pgo); a few minutes. Written again when the hot code changes
# much: an old profile still serves, less well.
pgo:
	$(GO) run ./bench/run -go "$(GO)" -runs 3 -pgo cmd/memsym/default.pgo

# Every fuzz target in the tree for a while; FUZZTIME=10m for the long runs.
# Go spends up to a minute minimizing each new interesting input by default,
# which stalls targets whose seeds are whole recordings (FuzzFollow): a few
# seconds is enough. .ci/fuzz says what it does with Go 1.26's own deadline
# failures.
FUZZTIME ?= 30s
FUZZMINIMIZETIME ?= 5s
fuzz:
	GO="$(GO)" FUZZTIME="$(FUZZTIME)" FUZZMINIMIZETIME="$(FUZZMINIMIZETIME)" .ci/fuzz

# The page's screenshot, docs/images/page.png: the course GPT's page in
# headless Chromium (not run by the tests). CHROMIUM=... picks the browser.
CHROMIUM ?= chromium
page-image:
	@dir=$$(mktemp -d) && \
	$(GO) run ./cmd/memsym page --program gpt-course --const D=384,H=6,L=6 -o "$$dir" && \
	$(CHROMIUM) --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --hide-scrollbars \
		--user-data-dir="$$dir/profile" --window-size=1280,1900 \
		--screenshot="$(CURDIR)/docs/images/page.png" "file://$$dir/gpt-course.html" 2>/dev/null; \
	status=$$?; rm -rf "$$dir"; exit $$status

# README's images, from today's chapter of the course GPT (needs pdflatex,
# pdftoppm and chromium); look at them before committing them.
images:
	./docs/images/make.sh "$(GO)"

clean:
	rm -f memsym bench.out
