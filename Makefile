# Makefile — giochi-sim: build, test, benchmark, install.
#
#   make            build ./giochi-sim (installs missing Debian packages first when root)
#   make run        build and run the default simulation, printing its report
#   make reports    remake the sample reports in reports/ from that run
#   make check      build and run the whole test suite (unit, rule, statistical, command line)
#   make sanitize   build with AddressSanitizer/UBSan and run the whole suite under them
#   make mpi        build ./giochi-sim-mpi, the same tool over MPI ranks (OpenMPI)
#   make bench      games per second per case (repeated, median and spread), and the ratio to bare loops
#                   (BENCH_INSTR=1: also in instructions per game, with valgrind)
#   make fuzz       build the libFuzzer target (tests/fuzz/) with clang and run it FUZZ_SECONDS
#                   (default 60) from the corpus in tests/fuzz/corpus; new inputs and crashes
#                   go to build-fuzz/. Skipped, with a message, if libFuzzer cannot be had.
#   make install / uninstall   honour PREFIX (/usr/local) and DESTDIR
#   make clean

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
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
ALL_CFLAGS := -std=gnu11 $(OPT) $(ARCH) $(WARN) -pthread -Isrc -Isrc/core -DGIOCHI_VERSION='"$(VERSION)"' $(CFLAGS)
LDLIBS   := -lgsl -lgslcblas -lcjson -lm -pthread

BUILD    ?= build
SRC      := $(sort $(wildcard src/core/*.c src/games/*.c src/bots/*.c))
CONFIGS  := $(sort $(wildcard configs/*.json))
OBJ      := $(SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/configs.o
TEST_SRC := $(sort $(wildcard tests/*.c))
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
BIN      := giochi-sim
MANPAGES := $(sort $(wildcard man/*.[1-9]))

.PHONY: all run reports check unit cli sanitize fuzz bench deps deps-plot deps-mpi mpi install uninstall clean

all: deps $(BIN)

# Checks that the C libraries are there; as root with apt-get, installs what is missing,
# otherwise names the exact packages to install.
deps:
	@src/build/deps.sh

# gnuplot, for --plot, --html's charts and their tests.
deps-plot:
	@src/build/deps.sh plot

$(BIN): $(BUILD)/src/main.o $(BUILD)/libgiochi.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS) $(LDFLAGS)

# giochi-sim-mpi: main.c again with GIOCHI_MPI, and the MPI distributor (src/mpi/).
MPICC    ?= mpicc
MPI_BIN  := giochi-sim-mpi

deps-mpi:
	@src/build/deps.sh mpi

mpi: deps-mpi $(MPI_BIN)

$(MPI_BIN): src/main.c src/mpi/mpi_run.c src/mpi/mpi_run.h $(BUILD)/libgiochi.a
	$(MPICC) $(ALL_CFLAGS) -DGIOCHI_MPI -o $@ src/main.c src/mpi/mpi_run.c $(BUILD)/libgiochi.a \
		$(LDLIBS) $(LDFLAGS)

$(BUILD)/libgiochi.a: $(OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c $(wildcard src/*/*.h) $(wildcard src/*.h) tests/check.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The built-in default rulesets are configs/*.json themselves, embedded as C strings.
$(BUILD)/gen/configs.c: $(CONFIGS) src/build/embed.sh
	@mkdir -p $(dir $@)
	src/build/embed.sh $(CONFIGS) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/configs.o: $(BUILD)/gen/configs.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/unit-tests: $(TEST_OBJ) $(BUILD)/libgiochi.a
	$(CC) $(ALL_CFLAGS) -o $@ $(TEST_OBJ) $(BUILD)/libgiochi.a $(LDLIBS) $(LDFLAGS)

# Speed of the generic search bots on every game alphabeta plays; tests/bench.sh runs it.
$(BUILD)/search-bench: tests/bench/search_bench.c $(BUILD)/libgiochi.a
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libgiochi.a $(LDLIBS) $(LDFLAGS)

bench: $(BUILD)/search-bench
export SEARCH_BENCH := $(BUILD)/search-bench

# The main job of the README: a real simulation of the default game and ruleset.
RUN_ARGS := --game=oca --runs=100000 --seed=1

run: all
	./$(BIN) $(RUN_ARGS)

# The sample reports in reports/ are the main job's run as JSON and CSV.
reports: all
	./$(BIN) $(RUN_ARGS) --quiet --format=json --output=reports/sample.json
	./$(BIN) $(RUN_ARGS) --quiet --format=csv --output=reports/sample.csv
	./$(BIN) $(RUN_ARGS) --quiet --format=html --output=reports/sample.html

unit: deps $(BUILD)/unit-tests
	$(BUILD)/unit-tests

check: deps deps-mpi deps-plot $(BIN) $(BUILD)/unit-tests $(MPI_BIN)
	@GIOCHI_MPI_BIN=./$(MPI_BIN) tests/run-all.sh $(BUILD)/unit-tests ./$(BIN)

sanitize:
	$(MAKE) deps-mpi $(MPI_BIN)
	$(MAKE) BUILD=build-san BIN=giochi-sim-san OPT='-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined' LDFLAGS='-fsanitize=address,undefined' giochi-sim-san build-san/unit-tests
	GIOCHI_MPI_BIN=./$(MPI_BIN) ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 GIOCHI_SANITIZE=1 tests/run-all.sh build-san/unit-tests ./giochi-sim-san

# Bare reference loops (tests/bench/bare*.c, named in tests/bench.list): the floor each
# benchmarked game is compared with. (The search and wari yardsticks have rules of their own.)
BARE_SRC := $(sort $(wildcard tests/bench/bare*.c))
BARE_BIN := $(BARE_SRC:tests/bench/%.c=$(BUILD)/bench/%)

$(BUILD)/bench/%: tests/bench/%.c $(BUILD)/libgiochi.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libgiochi.a $(LDLIBS) $(LDFLAGS)

bench: all $(BARE_BIN)
	@tests/bench.sh ./$(BIN) $(BUILD)/bench

# The fuzz target: every object built by clang with coverage for libFuzzer and ASan/UBSan.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_OPT     := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
                -fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link

fuzz:
	@FUZZ_CC=$(FUZZ_CC) src/build/deps.sh fuzz || { echo "fuzz: skipped: libFuzzer is not available (see above)"; exit 0; }; \
	$(MAKE) --no-print-directory BUILD=build-fuzz CC=$(FUZZ_CC) OPT='$(FUZZ_OPT)' build-fuzz/fuzz-rules && \
	mkdir -p build-fuzz/corpus && \
	build-fuzz/fuzz-rules -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -print_final_stats=1 -artifact_prefix=build-fuzz/ build-fuzz/corpus tests/fuzz/corpus

$(BUILD)/fuzz-rules: tests/fuzz/fuzz_rules.c $(BUILD)/libgiochi.a
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
	$(CC) $(ALL_CFLAGS) -Isrc/bots -o $@ $< $(BUILD)/libgiochi.a $(LDLIBS) $(LDFLAGS)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/$(BIN)
	for m in $(MANPAGES); do install -m 644 $$m $(DESTDIR)$(MANDIR)/man$${m##*.}/; done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/$(BIN)
	for m in $(MANPAGES); do rm -f $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}; done

clean:
	rm -rf build build-san build-fuzz $(BIN) giochi-sim-san $(MPI_BIN)
