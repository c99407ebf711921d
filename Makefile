# Makefile — giochi-sim: build, test, benchmark, install.
#
#   make            build ./giochi-sim (installs missing Debian packages first when root)
#   make run        build and run the default simulation, printing its report
#   make reports    remake the sample reports in reports/ from that run
#   make check      build and run the whole test suite (unit, rule, statistical, command line)
#   make sanitize   build with AddressSanitizer/UBSan and run the whole suite under them
#   make bench      games per second per game and bot, one thread and all threads
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
ALL_CFLAGS := -std=gnu11 $(OPT) $(WARN) -pthread -Isrc -Isrc/core -DGIOCHI_VERSION='"$(VERSION)"' $(CFLAGS)
LDLIBS   := -lgsl -lgslcblas -lcjson -lm -pthread

BUILD    ?= build
SRC      := $(sort $(wildcard src/core/*.c src/games/*.c src/bots/*.c))
CONFIGS  := $(sort $(wildcard configs/*.json))
OBJ      := $(SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/configs.o
TEST_SRC := $(sort $(wildcard tests/*.c))
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
BIN      := giochi-sim
MANPAGES := $(sort $(wildcard man/*.[1-9]))

.PHONY: all run reports check unit cli sanitize bench deps install uninstall clean

all: deps $(BIN)

# Checks that the C libraries are there; as root with apt-get, installs what is missing,
# otherwise names the exact packages to install.
deps:
	@src/build/deps.sh

$(BIN): $(BUILD)/src/main.o $(BUILD)/libgiochi.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS) $(LDFLAGS)

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

unit: deps $(BUILD)/unit-tests
	$(BUILD)/unit-tests

check: deps $(BIN) $(BUILD)/unit-tests
	@tests/run-all.sh $(BUILD)/unit-tests ./$(BIN)

sanitize:
	$(MAKE) BUILD=build-san BIN=giochi-sim-san OPT='-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined' LDFLAGS='-fsanitize=address,undefined' giochi-sim-san build-san/unit-tests
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 GIOCHI_SANITIZE=1 tests/run-all.sh build-san/unit-tests ./giochi-sim-san

bench: all
	@tests/bench.sh ./$(BIN)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/$(BIN)
	for m in $(MANPAGES); do install -m 644 $$m $(DESTDIR)$(MANDIR)/man$${m##*.}/; done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/$(BIN)
	for m in $(MANPAGES); do rm -f $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}; done

clean:
	rm -rf build build-san $(BIN) giochi-sim-san
