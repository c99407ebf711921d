# Makefile — giochi-sim: build, test, benchmark, install.
#
#   make            build ./giochi-sim (installs missing Debian packages first when root);
#                   one short line a step, V=1 for the full commands
#   make run        build and run the default simulation, printing its report (two lines
#                   before it; the build's steps in build/make-run.log)
#   make reports    remake the sample reports in reports/: that run (JSON, CSV, a page) and the
#                   pages of a sweep, a sensitivity (tornado), a goal seek and a tournament
#   make check      build and run the whole test suite (unit, rule, statistical, command line,
#                   the manuals' figures, the results' reduced runs), CHECK_JOBS (default: the
#                   cores) jobs at a time; it ends with the costliest jobs and unit tests
#   make unit       build and run the unit tests alone (about a minute)
#   make cli        build and run the command-line tests alone, one script after another
#                   (SCRIPTS="cli_oca cli_wari" for some)
#   make check-slow re-run the figures of the results document (doc/RESULTS.md, doc/results/:
#                   searches, tournaments, solver runs, minutes each) in full, RESULTS_JOBS
#                   (default 2) at a time, failing on a moved figure; not part of CI
#   make results    the same, then rewrite the results' stamps and kept outputs (IDS="ID ..."
#                   for some only; RESULTS_TIME_LIMIT=SECONDS to do it in parts)
#   make sanitize   build with AddressSanitizer/UBSan and run the unit tests and every
#                   command-line test that feeds the program input under them (not the figure
#                   checks, the results' runs, the sample-report remakes or the page renders)
#   make mpi        build ./giochi-sim-mpi, the same tool over MPI ranks (OpenMPI)
#   make bench      games per second per case (repeated, median and spread), and the ratio to bare loops
#                   (BENCH_INSTR=1: also in instructions per game, with valgrind)
#   make fuzz       build the libFuzzer targets (tests/fuzz/) with clang and run them for
#                   FUZZ_SECONDS (default 60) in all, half each: rulesets from tests/fuzz/corpus,
#                   partial files from tests/fuzz/corpus-merge; new inputs and crashes go to
#                   build-fuzz/. Skipped, with a message, if libFuzzer cannot be had.
#   make install / uninstall   honour PREFIX (/usr/local) and DESTDIR: the binary, the man
#                   pages, the bash completion (COMPLETIONDIR) and the zsh one (ZSHCOMPLETIONDIR)
#   make clean

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPLETIONDIR ?= $(PREFIX)/share/zsh/site-functions
CC       ?= cc
VERSION  := 0.1.0

# Warnings are always on; a user's CFLAGS add to them, never replace them.
WARN     := -Wall -Wextra -Wshadow -Wpointer-arith -Wstrict-prototypes -Wmissing-prototypes \
            -Wformat=2 -Wundef -Wcast-align -Wwrite-strings -Wno-format-nonliteral
OPT      ?= -O2 -g
CFLAGS   ?=
# The popcnt instruction (bit counts are everywhere in the games' masks): x86-64 processors
# have had it since 2008, but the portable baseline lacks it, so it is enabled only when the
# machine that builds has it (giochi-sim is built where it runs). `make ARCH=` turns it off;
# `make ARCH=-march=native` goes further.
ARCH     ?= $(shell grep -qsw popcnt /proc/cpuinfo && $(CC) -mpopcnt -E -x c /dev/null >/dev/null 2>&1 && echo -mpopcnt)
ALL_CFLAGS := -std=gnu11 $(OPT) $(ARCH) $(WARN) -pthread -Isrc -DGIOCHI_VERSION='"$(VERSION)"' $(CFLAGS)
LDLIBS   := -lgsl -lgslcblas -lcjson -lm -pthread

BUILD    ?= build

# A quiet build: one short line a step (cc src/core/rng.c); `make V=1` shows each full command.
step = $(if $(filter 1,$(V)),,@printf '  %-5s %s\n' '$(1)' '$(2)';)
# The command line (src/cli but its output files, which the library keeps) and the two
# implementations of dist/dist.h: giochi-sim links dist_plain.c, giochi-sim-mpi links
# dist_mpi.c and the MPI distributor (compiled by mpicc). Every other file of src/ is the
# library.
CLI_SRC  := $(sort $(filter-out src/cli/outfile.c,$(wildcard src/cli/*.c)))
DIST_PLAIN := src/dist/dist_plain.c
DIST_MPI := src/dist/dist_mpi.c src/dist/mpi_run.c
SRC      := $(sort $(filter-out $(CLI_SRC) $(DIST_PLAIN) $(DIST_MPI),$(shell find src -name '*.c')))
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
CONFIGS  := $(sort $(wildcard configs/*.json))
POPS     := $(sort $(wildcard configs/populations/*.json))
OBJ      := $(SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/configs.o $(BUILD)/gen/populations.o
TEST_SRC := $(sort $(shell find tests -maxdepth 3 -name '*.c' -not -path 'tests/bench/*' -not -path 'tests/fuzz/*'))
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
BIN      := giochi-sim
MANPAGES := $(sort $(wildcard man/*.[1-9]))

.PHONY: all run reports check check-slow results unit cli sanitize sanitize-build fuzz bench deps deps-plot deps-mpi mpi install uninstall clean

# Parallel by default: every rule names what it needs, and the package checks run one after
# another (deps, then deps-mpi, then deps-plot inside check's recipe). make -j1 serialises.
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif

all: deps $(BIN)

# Checks that the C libraries are there; as root with apt-get, installs what is missing,
# otherwise names the exact packages to install.
deps:
	@tools/deps.sh

# gnuplot, for --plot, --html's charts and their tests.
deps-plot:
	@tools/deps.sh plot

$(BIN): $(CLI_OBJ) $(BUILD)/src/dist/dist_plain.o $(BUILD)/libgiochi.a
	$(call step,link,$@)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS) $(LDFLAGS)

# giochi-sim-mpi: the same command line over dist_mpi.c and the MPI distributor.
MPICC    ?= mpicc
MPI_BIN  := giochi-sim-mpi
MPI_OBJ  := $(DIST_MPI:%.c=$(BUILD)/mpi/%.o)

deps-mpi: | deps
	@tools/deps.sh mpi

mpi: $(MPI_BIN)

$(BUILD)/mpi/%.o: %.c Makefile | deps-mpi
	@mkdir -p $(dir $@)
	$(call step,mpicc,$<)$(MPICC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(MPI_BIN): $(CLI_OBJ) $(MPI_OBJ) $(BUILD)/libgiochi.a | deps-mpi
	$(call step,link,$@)$(MPICC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS) $(LDFLAGS)

$(BUILD)/libgiochi.a: $(OBJ)
	@rm -f $@
	$(call step,ar,$@)ar rcs $@ $^

# Header dependencies are generated by the compiler (-MMD -MP: build/**/*.d, read below), so
# touching one header rebuilds only the objects that include it.
$(BUILD)/%.o: %.c Makefile | deps
	@mkdir -p $(dir $@)
	$(call step,cc,$<)$(CC) $(ALL_CFLAGS) -MMD -MP -Itests -c -o $@ $<

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# The built-in default rulesets are configs/*.json themselves, embedded as C strings.
$(BUILD)/gen/configs.c: $(CONFIGS) tools/embed.sh
	@mkdir -p $(dir $@)
	$(call step,embed,$@)tools/embed.sh $(CONFIGS) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/configs.o: $(BUILD)/gen/configs.c
	$(call step,cc,$<)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The built-in populations (pop:NAME) are configs/populations/*.json, embedded the same way.
$(BUILD)/gen/populations.c: $(POPS) tools/embed_pops.sh
	@mkdir -p $(dir $@)
	$(call step,embed,$@)tools/embed_pops.sh $(POPS) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/populations.o: $(BUILD)/gen/populations.c
	$(call step,cc,$<)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/unit-tests: $(TEST_OBJ) $(BUILD)/libgiochi.a
	$(call step,link,$@)$(CC) $(ALL_CFLAGS) -o $@ $(TEST_OBJ) $(BUILD)/libgiochi.a $(LDLIBS) $(LDFLAGS)

# Speed of the generic search bots on every game alphabeta plays; tests/bench.sh runs it.
$(BUILD)/search-bench: tests/bench/search_bench.c $(BUILD)/libgiochi.a
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libgiochi.a $(LDLIBS) $(LDFLAGS)

bench: $(BUILD)/search-bench
export SEARCH_BENCH := $(BUILD)/search-bench

# The main job of the README: a real simulation of the default game and ruleset (its arguments
# live with the sample reports' commands, which hold the same run).
RUN_ARGS := $(shell tools/reports.sh --args)

# It prints two lines before the report: the build's own lines (compiler warnings included,
# which are repeated) go to $(BUILD)/make-run.log, shown whole if the build fails; V=1 shows
# everything.
ifeq ($(V),1)
run: all
	./$(BIN) $(RUN_ARGS)
else
run:
	@mkdir -p $(BUILD)
	@echo "make: building ./$(BIN) (its steps: $(BUILD)/make-run.log; make V=1 shows them)"
	@$(MAKE) --no-print-directory all >$(BUILD)/make-run.log 2>&1 || { cat $(BUILD)/make-run.log; exit 1; }
	@grep ': warning:' $(BUILD)/make-run.log | grep -v '^make' || true
	@echo "./$(BIN) $(RUN_ARGS)"
	@./$(BIN) $(RUN_ARGS)
endif

# The sample reports in reports/: the main job's run as JSON, CSV and a page, and the pages of
# the README's experiments and searches (a sweep, a sensitivity's tornado, a goal seek, a
# tournament). They need gnuplot for their charts (deps-plot). Their commands, and the fixed date
# they carry, are in tools/reports.sh, which tests/cli/cli_samples.sh runs too: `make check` fails
# when a committed report is not what this target makes now.
reports: all
	@tools/deps.sh plot
	tools/reports.sh ./$(BIN)

unit: deps $(BUILD)/unit-tests
	$(BUILD)/unit-tests

# The command-line tests alone, one script after another (SCRIPTS="cli_oca cli_wari" for some).
cli: $(BIN) $(MPI_BIN)
	@tools/deps.sh plot
	@GIOCHI_MPI_BIN=./$(MPI_BIN) tests/cli/cli.sh ./$(BIN) $(SCRIPTS)

check: $(BIN) $(BUILD)/unit-tests $(MPI_BIN)
	@tools/circles.sh $(BUILD) $(OBJ) $(CLI_OBJ) $(BUILD)/src/dist/dist_plain.o $(BUILD)/mpi/src/dist/mpi_run.o
	@tools/deps.sh plot
	@tools/deps.sh render || echo "giochi-sim: the sample pages will not be rendered (tests/cli/cli_render.sh skips it)" >&2
	@GIOCHI_MPI_BIN=./$(MPI_BIN) tests/run-all.sh $(BUILD)/unit-tests ./$(BIN)

check-slow: $(BIN)
	@tools/deps.sh plot
	python3 tools/results.py check ./$(BIN) $(IDS)

results: $(BIN)
	@tools/deps.sh plot
	python3 tools/results.py update ./$(BIN) $(IDS)

# The sanitizer build (build-san/, ./giochi-sim-san): `make sanitize-build` alone lets .ci/run
# build it beside the plain tree, both at once.
SAN_MAKE = $(MAKE) BUILD=build-san BIN=giochi-sim-san OPT='-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined' LDFLAGS='-fsanitize=address,undefined'
sanitize-build: deps
	@$(SAN_MAKE) giochi-sim-san build-san/unit-tests

sanitize: sanitize-build $(MPI_BIN)
	@tools/deps.sh plot
	@GIOCHI_MPI_BIN=./$(MPI_BIN) ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 GIOCHI_SANITIZE=1 tests/run-all.sh build-san/unit-tests ./giochi-sim-san

# Bare reference loops (tests/bench/bare*.c, named in tests/bench.list): the floor each
# benchmarked game is compared with. (The search and wari yardsticks have rules of their own.)
BARE_SRC := $(sort $(wildcard tests/bench/bare*.c))
BARE_BIN := $(BARE_SRC:tests/bench/%.c=$(BUILD)/bench/%)

$(BUILD)/bench/%: tests/bench/%.c $(BUILD)/libgiochi.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libgiochi.a $(LDLIBS) $(LDFLAGS)

# The C client of examples/bots/c, for the bot protocol's lines of tests/bench.list.
$(BUILD)/bench/random_bot: examples/bots/c/random_bot.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $<

bench: all $(BARE_BIN) $(BUILD)/bench/random_bot
	@tests/bench.sh ./$(BIN) $(BUILD)/bench

# The fuzz targets: every object built by clang with coverage for libFuzzer and ASan/UBSan.
# fuzz-rules (rulesets, --set, --bots) and fuzz-merge (partial files, as --merge reads them)
# share FUZZ_SECONDS half and half, so that CI's fuzz minute stays a minute.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_OPT     := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
                -fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link
FUZZ_HALF     = $$(( ($(FUZZ_SECONDS) + 1) / 2 ))

fuzz:
	@FUZZ_CC=$(FUZZ_CC) tools/deps.sh fuzz || { echo "fuzz: skipped: libFuzzer is not available (see above)"; exit 0; }; \
	$(MAKE) --no-print-directory BUILD=build-fuzz CC=$(FUZZ_CC) OPT='$(FUZZ_OPT)' build-fuzz/fuzz-rules build-fuzz/fuzz-merge && \
	mkdir -p build-fuzz/corpus build-fuzz/corpus-merge && \
	build-fuzz/fuzz-rules -max_total_time=$(FUZZ_HALF) -timeout=10 -rss_limit_mb=2048 \
	    -print_final_stats=1 -artifact_prefix=build-fuzz/ build-fuzz/corpus tests/fuzz/corpus && \
	build-fuzz/fuzz-merge -max_total_time=$(FUZZ_HALF) -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
	    -print_final_stats=1 -artifact_prefix=build-fuzz/merge- build-fuzz/corpus-merge tests/fuzz/corpus-merge

$(BUILD)/fuzz-rules: tests/fuzz/fuzz_rules.c $(BUILD)/libgiochi.a
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(BUILD)/libgiochi.a $(LDLIBS) -fsanitize=address,undefined

$(BUILD)/fuzz-merge: tests/fuzz/fuzz_merge.c $(BUILD)/libgiochi.a
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(BUILD)/libgiochi.a $(LDLIBS) -fsanitize=address,undefined


# Wari's yardsticks (make bench only): a bare playout loop beside the library's figures;
# tests/bench.sh runs them.
bench: $(BUILD)/wari_bare $(BUILD)/wari_bench
export WARI_BARE := $(BUILD)/wari_bare
export WARI_BENCH := $(BUILD)/wari_bench

$(BUILD)/wari_bare: tests/bench/wari_bare.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $<

$(BUILD)/wari_bench: tests/bench/wari_bench.c $(BUILD)/libgiochi.a
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libgiochi.a $(LDLIBS) $(LDFLAGS)

# The bash and zsh completion scripts, written by the tool itself from its own tables (zsh
# finds a completion in $fpath as a file named _ and the command).
COMPLETION := $(BUILD)/giochi-sim.bash
ZSHCOMPLETION := $(BUILD)/_giochi-sim

$(COMPLETION): $(BIN)
	@mkdir -p $(dir $@)
	./$(BIN) --completion=bash --output=$@

$(ZSHCOMPLETION): $(BIN)
	@mkdir -p $(dir $@)
	./$(BIN) --completion=zsh --output=$@

install: all $(COMPLETION) $(ZSHCOMPLETION)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7 \
	    $(DESTDIR)$(COMPLETIONDIR) $(DESTDIR)$(ZSHCOMPLETIONDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/$(BIN)
	for m in $(MANPAGES); do install -m 644 $$m $(DESTDIR)$(MANDIR)/man$${m##*.}/; done
	install -m 644 $(COMPLETION) $(DESTDIR)$(COMPLETIONDIR)/$(BIN)
	install -m 644 $(ZSHCOMPLETION) $(DESTDIR)$(ZSHCOMPLETIONDIR)/_$(BIN)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/$(BIN)
	for m in $(MANPAGES); do rm -f $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}; done
	rm -f $(DESTDIR)$(COMPLETIONDIR)/$(BIN) $(DESTDIR)$(ZSHCOMPLETIONDIR)/_$(BIN)

clean:
	rm -rf build build-san build-fuzz $(BIN) giochi-sim-san $(MPI_BIN)
