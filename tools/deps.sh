#!/bin/sh
# deps.sh [mpi] — makes sure the C libraries giochi-sim builds against are installed (with
# `mpi`, OpenMPI as well).
# As root on a Debian-like system it installs the missing packages with apt-get; otherwise it
# prints the exact command to run and fails.
#   deps.sh        the libraries of the build
#   deps.sh plot   also gnuplot-nox (for --plot and the charts of --html), and the tools the
#                  test suite drives giochi-sim with: jq (the manual's figure checks) and python3
#                  (the example bots, forged parts, the pseudo-terminal of the human seat)
#   deps.sh render also Chromium, which the test suite runs headless to render the sample pages
#                  at 1280 px (tests/cli/cli_render.sh; without it that test is skipped)
#   deps.sh fuzz   also clang with its libFuzzer runtime (for `make fuzz` only); exits 1 with
#                  a message if that runtime is not there and cannot be installed
set -u
CC=${CC:-cc}

if [ "${1:-}" = fuzz ]; then
    FUZZ_CC=${FUZZ_CC:-clang}
    probe_fuzzer() {
        printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' |
            $FUZZ_CC -fsanitize=fuzzer,address -x c -o /dev/null - >/dev/null 2>&1
    }
    command -v "$FUZZ_CC" >/dev/null 2>&1 && probe_fuzzer && exit 0
    pkgs="libclang-rt-14-dev"
    command -v "$FUZZ_CC" >/dev/null 2>&1 || pkgs="clang $pkgs"
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "giochi-sim: installing the fuzzer runtime: $pkgs" >&2
        export DEBIAN_FRONTEND=noninteractive
        # shellcheck disable=SC2086
        apt-get install -y -q $pkgs >/dev/null 2>&1 ||
            { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q $pkgs >/dev/null 2>&1; }
        command -v "$FUZZ_CC" >/dev/null 2>&1 && probe_fuzzer && exit 0
    fi
    echo "giochi-sim: $FUZZ_CC cannot link libFuzzer (-fsanitize=fuzzer); install: $pkgs" >&2
    exit 1
fi
missing=""
probe() { # probe HEADER PACKAGE
    printf '#include <%s>\nint main(void){return 0;}\n' "$1" |
        $CC -x c -o /dev/null - >/dev/null 2>&1 || missing="$missing $2"
}
if ! command -v "$CC" >/dev/null 2>&1; then
    missing="$missing gcc"
else
    probe gsl/gsl_cdf.h libgsl-dev
    probe cjson/cJSON.h libcjson-dev
    probe argp.h libc6-dev
fi
# `deps.sh plot`: gnuplot too (without X11), which --plot and --html run.
if [ "${1:-}" = plot ]; then
    command -v gnuplot >/dev/null 2>&1 || missing="$missing gnuplot-nox"
    command -v jq >/dev/null 2>&1 || missing="$missing jq"
    command -v python3 >/dev/null 2>&1 || missing="$missing python3"
fi
# `deps.sh render`: a headless browser for the render test.
if [ "${1:-}" = render ]; then
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 ||
        command -v google-chrome >/dev/null 2>&1 || missing="$missing chromium"
fi
# `deps.sh mpi`: OpenMPI too, for giochi-sim-mpi (make mpi, make check).
if [ "${1:-}" = mpi ]; then
    command -v mpicc >/dev/null 2>&1 || missing="$missing libopenmpi-dev"
    command -v mpirun >/dev/null 2>&1 || missing="$missing openmpi-bin"
fi
[ -z "$missing" ] && exit 0

echo "giochi-sim: missing build dependencies:$missing" >&2
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "giochi-sim: installing them with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    if ! apt-get install -y -q $missing >/dev/null 2>&1; then
        apt-get update -q >/dev/null 2>&1
        # shellcheck disable=SC2086
        apt-get install -y -q $missing >&2 || {
            echo "giochi-sim: apt-get could not install:$missing" >&2
            exit 1
        }
    fi
    exit 0
fi
echo "giochi-sim: install them with: sudo apt-get install$missing" >&2
exit 1
