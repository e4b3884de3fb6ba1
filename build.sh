#!/usr/bin/env bash
# The whole set-up, build and test of the reader in one script.
#
#   ./build.sh          install what is missing, build the core natively and as WebAssembly,
#                       and write the finished site to dist/ (open dist/reader.html)
#   ./build.sh test     build if needed, then run every test: the type check and the linters
#                       (tests/habits.js), native Catch2 (CTest), Node tests of dist/llmmath.js,
#                       browser tests in Chromium, Firefox ESR and WebKitGTK, and the edition
#                       served by nginx and Apache (tests/hosting/)
#   ./build.sh core     only the core: native tests built and dist/llmmath.js written
#   ./build.sh fuzz [s] fuzz every core function for s seconds (default 600), growing the corpus
#                       kept in tests/fuzz/corpus/
#   ./build.sh bench    a benchmark (figures, not a test): bytes, load times and ratios, input
#                       times and heap of the reader (bench/page.js), every API function against
#                       the native core (bench/api.js), Lighthouse on a phone against the edition
#                       served by nginx (bench/lighthouse.js); writes bench/results.json and
#                       compares it with bench/baseline.json in one table (bench/compare.js →
#                       bench/results.md)
#   ./build.sh serve    serve dist/ on http://127.0.0.1:8000/ (PORT=... to change)
#   ./build.sh clean    remove build/ and dist/
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$root"

build_dir=build
dist_dir=dist
jobs=$(nproc 2>/dev/null || echo 2)

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }

# --- set-up: Debian packages and npm modules ----------------------------------------------
# Each package and the file that shows it is installed.
apt_packages=(
  "cmake:/usr/bin/cmake"
  "ninja-build:/usr/bin/ninja"
  "g++:/usr/bin/g++"
  "ccache:/usr/bin/ccache"
  "emscripten:/usr/bin/emcc"
  # the embedded wasm's gzip (bindings/wasm/gzip_embedded_wasm.js)
  "zopfli:/usr/bin/zopfli"
  "libeigen3-dev:/usr/share/eigen3/cmake/Eigen3Config.cmake"
  "catch2:/usr/lib/cmake/Catch2/Catch2Config.cmake"
  "nodejs:/usr/bin/node"
  # the build draws each figure's first drawing into the reader's pages in headless Chromium
  # (site/prerender.mjs)
  "chromium:/usr/bin/chromium"
  # the notebook edition: the build writes it and runs it on Debian's Python 3 with NumPy
  # (site/notebook.mjs, site/notebook-execute.py: nbformat, nbclient, and the kernel python3 of
  # ipykernel)
  "python3-numpy:/usr/lib/python3/dist-packages/numpy/__init__.py"
  # its drawing cells: Matplotlib, and SciPy where it fits (site/src/widgets/<name>/<figure id>.py)
  "python3-matplotlib:/usr/lib/python3/dist-packages/matplotlib/__init__.py"
  "python3-scipy:/usr/lib/python3/dist-packages/scipy/__init__.py"
  "python3-nbformat:/usr/lib/python3/dist-packages/nbformat/__init__.py"
  "python3-nbclient:/usr/lib/python3/dist-packages/nbclient/__init__.py"
  "python3-ipykernel:/usr/share/jupyter/kernels/python3/kernel.json"
)
# The other browsers are needed only by the browser tests (with Chromium: Firefox ESR driven over
# WebDriver BiDi, and WebKitGTK driven over classic WebDriver by WebKitWebDriver, whose MiniBrowser needs an
# X server: Xvfb, started by tests/webkit/webkit.js); clang and its runtime libraries only by the
# sanitizer build and the fuzzer; clang-format (14, the version .clang-format is made for) only by
# the lint suite; MkDocs (and Material), Sphinx with MyST (and the book theme), Hugo and pandoc
# only by the tests that build course sites with them.
test_apt_packages=(
  "clang-format:/usr/bin/clang-format"
  "firefox-esr:/usr/bin/firefox-esr"
  # WebKit, the engine of Safari and of every iPhone browser: WebKitGTK's driver (it brings the
  # engine and its MiniBrowser) and the virtual X server the browser draws into
  "webkit2gtk-driver:/usr/bin/WebKitWebDriver"
  "xvfb:/usr/bin/Xvfb"
  "clang:/usr/bin/clang++"
  "libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a"
  # the publishing tools whose real sites tests/browser/platforms.test.js builds
  "mkdocs:/usr/bin/mkdocs"
  "python3-sphinx:/usr/bin/sphinx-build"
  "python3-myst-parser:/usr/lib/python3/dist-packages/myst_parser/__init__.py"
  "mkdocs-material:/usr/share/mkdocs/themes/material/__init__.py"
  "python3-sphinx-book-theme:/usr/lib/python3/dist-packages/sphinx_book_theme/__init__.py"
  "python3-yaml:/usr/lib/python3/dist-packages/yaml/__init__.py"
  "hugo:/usr/bin/hugo"
  "pandoc:/usr/bin/pandoc"
  # nbconvert, whose HTML of the notebook edition tests/browser/notebook-html.test.js opens, and
  # the MathJax and require.js its page loads, copied beside it by the guide's recipe
  "python3-nbconvert:/usr/lib/python3/dist-packages/nbconvert/__init__.py"
  "libjs-mathjax:/usr/share/javascript/mathjax/MathJax.js"
  "libjs-requirejs:/usr/share/javascript/requirejs/require.min.js"
  # poppler's pdftoppm and pdftotext, which read the printed chapter's PDF (tests/browser/print.test.js)
  "poppler-utils:/usr/bin/pdftoppm"
  # the web servers tests/hosting/ serves the edition with, by the hosting guide's configurations
  # (apache2-bin: the server alone, no service that starts itself; nginx's package may start one)
  "nginx:/usr/sbin/nginx"
  "libnginx-mod-http-brotli-static:/usr/lib/nginx/modules/ngx_http_brotli_static_module.so"
  "apache2-bin:/usr/sbin/apache2"
  "media-types:/etc/mime.types"
)

ensure_packages() {
  local missing=() entry
  for entry in "$@"; do
    [[ -e ${entry#*:} ]] || missing+=("${entry%%:*}")
  done
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  ((${#missing[@]})) || return 0
  if [[ $(id -u) -ne 0 ]]; then
    die "missing Debian packages. Install them, then run this again:
    sudo apt-get update && sudo apt-get install -y ${missing[*]}"
  fi
  say "Installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
}

ensure_node_modules() {
  # npm ci only when the lock file changed since the last install.
  local stamp=node_modules/.llmmath-lock
  if [[ -f $stamp ]] && cmp -s package-lock.json "$stamp"; then return 0; fi
  say "Installing npm modules (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
}

# --- build ---------------------------------------------------------------------------------
# Debian's Emscripten runs its tools with this Node, which needs Debian's node modules.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
export CCACHE_DIR=${CCACHE_DIR:-$root/$build_dir/ccache}

# Every build's configuration (build type, compilers, flags, Eigen's place) is a preset of
# CMakePresets.json: native, sanitize, wasm. This script only runs them. A build folder is
# configured once; CMake reconfigures it by itself when a CMakeLists.txt changes.
# build_preset NAME [BUILD-PRESET]: configures build/NAME with its preset if needed and builds it.
build_preset() {
  local name=$1 build=${2:-$1}
  [[ -f $build_dir/$name/build.ninja ]] || cmake --preset "$name" >/dev/null
  cmake --build --preset "$build" -j "$jobs"
}

build_native() {
  say "Native core and Catch2 tests"
  build_preset native
}

build_wasm() {
  say "WebAssembly module (Emscripten)"
  build_preset wasm
}

# The core and its Catch2 tests under AddressSanitizer and UndefinedBehaviorSanitizer (clang),
# with coverage for libFuzzer, and the fuzz target over every core function.
build_sanitize() {
  say "Core, tests and fuzzer under ASan and UBSan (clang)"
  build_preset sanitize
}

# run_fuzz SECONDS CORPUS…: libFuzzer over the corpus folders (new inputs go to the first).
run_fuzz() {
  local seconds=$1; shift
  mkdir -p "$@"
  "$build_dir/sanitize/llmmath_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "$@"
}

# dist/ is assembled in one place, site/build.mjs: the core (build:core) or everything (build:site).
build_site() {
  say "Site"
  npm run --silent build:site
}

# The core alone: native tests built, dist/llmmath.js written.
build_core() {
  ensure_packages "${apt_packages[@]}"
  ensure_node_modules
  build_native
  build_wasm
  npm run --silent build:core
}

build_all() {
  build_core
  build_site
}

# --- tests ---------------------------------------------------------------------------------
results=()
failed=0
passed_total=0
failed_total=0

# run_suite NAME COMMAND...: runs one suite, keeps its output in build/test-logs/NAME.log and
# judges it by its exit code alone. The counts of passed and failed tests in the summary are
# read from the output for the reader of the summary; they decide nothing. A hang fails by name
# and costs little of CI's 90 minutes: CTest stops any one test after 300 s (--timeout), node's
# runner any one browser test or hook after 600 s (--test-timeout in package.json), and a suite
# that runs past SUITE_LIMIT seconds (default 3600) is stopped and fails. The browser suite takes
# about 15 minutes on an idle machine and 30 on one whose two cores are also busy (two `yes`):
# the limit was 1800 s, and a loaded run passed every test it reached, then ran out of time.
run_suite() {
  local name=$1; shift
  local log="$build_dir/test-logs/$name.log" status=0 pass fail
  mkdir -p "$build_dir/test-logs"
  say "Tests: $name"
  set +e
  local limit=(timeout --kill-after=30 "${SUITE_LIMIT:-3600}")
  declare -F "$1" >/dev/null && limit=()  # a function of this script (run_fuzz) limits itself
  "${limit[@]}" "$@" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  set -e
  [[ $status -eq 124 || $status -eq 137 ]] &&
    echo "build.sh: the $name suite ran past ${SUITE_LIMIT:-3600} s and was stopped" | tee -a "$log"
  case $name in
    fuzz)  # libFuzzer ends with "Done N runs in S second(s)"; one run of the target counts
      pass=$(sed -nE 's/^Done ([0-9]+) runs in .*/1/p' "$log" | tail -1); fail=0 ;;
    types|lint)  # tests/habits.js: "<suite>: P passed, F failed" (one per tool)
      pass=$(sed -nE 's/^[a-z]+: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$log" | tail -1)
      fail=${pass#* }; pass=${pass% *} ;;
    native|sanitize)  # CTest: "…% tests passed, F tests failed out of N"
      pass=$(sed -nE 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2 \1/p' "$log" | tail -1)
      fail=${pass#* }; pass=${pass% *}; [[ -n $pass ]] && pass=$((pass - fail)) ;;
    *)  # TAP from node --test: "# pass N", "# fail N"
      pass=$(sed -nE 's/^# pass ([0-9]+)$/\1/p' "$log" | tail -1)
      fail=$(sed -nE 's/^# fail ([0-9]+)$/\1/p' "$log" | tail -1) ;;
  esac
  pass=${pass:-0}; fail=${fail:-0}
  if [[ $status -ne 0 ]]; then
    failed=1
    results+=("$(printf '%-8s FAILED  %4d passed, %d failed, exit status %d (log: %s)' "$name" "$pass" "$fail" "$status" "$log")")
  else
    results+=("$(printf '%-8s ok      %4d passed' "$name" "$pass")")
  fi
  passed_total=$((passed_total + pass))
  failed_total=$((failed_total + fail))
}

run_tests() {
  ensure_packages "${test_apt_packages[@]}"
  # The type check and the linters first: they need no other build than dist/, and take seconds.
  run_suite types npm run --silent types
  run_suite lint npm run --silent lint
  build_sanitize
  say "The test-only module with a planted leak (the leak test must see it)"
  cmake --build --preset wasm-leaky -j "$jobs"
  # CTest exits non-zero when a test fails and, with --no-tests=error, when it finds none.
  run_suite native ctest --preset native --no-tests=error --timeout 300 -j "$jobs"
  run_suite sanitize ctest --preset sanitize --no-tests=error --timeout 300 -j "$jobs"
  # A short fuzz run from the committed corpus; what it finds new stays in build/.
  run_suite fuzz run_fuzz "${FUZZ_SECONDS:-30}" "$build_dir/fuzz-corpus" tests/fuzz/corpus
  run_suite node npm run --silent test:node
  run_suite browser npm run --silent test:browser
  run_suite firefox npm run --silent test:firefox
  run_suite hosting npm run --silent test:hosting
  run_suite webkit npm run --silent test:webkit
  echo
  say "Summary"
  printf '  %s\n' "${results[@]}"
  echo "all suites: $passed_total passed, $failed_total failed"
  return "$failed"
}

where_to_read() {
  cat <<EOT

The reader is built: $root/$dist_dir/reader.html
Open it straight from disk (file://$root/$dist_dir/reader.html): it needs no server and
no network. Or run ./build.sh serve and open http://127.0.0.1:${PORT:-8000}/reader.html
EOT
}

case ${1:-build} in
  build) build_all; where_to_read ;;
  core) build_core ;;
  fuzz)
    ensure_packages "${test_apt_packages[@]}"
    build_sanitize
    say "Fuzzing every core function for ${2:-600} s (corpus: tests/fuzz/corpus/)"
    run_fuzz "${2:-600}" tests/fuzz/corpus ;;
  test) build_all; run_tests ;;
  bench)
    build_all
    ensure_packages "${test_apt_packages[@]}"
    say "Benchmark of the reader (bench/page.js)"
    node bench/page.js "${RUNS:-80}" "${INPUTS:-200}"
    if [[ -f bench/api.js ]]; then say "Benchmark of the API against the native core (bench/api.js)"; node bench/api.js; fi
    say "Lighthouse on a phone against the edition served by nginx (bench/lighthouse.js)"
    node bench/lighthouse.js "${LIGHTHOUSE_RUNS:-5}"
    say "All figures against bench/baseline.json (bench/compare.js; also in bench/results.md)"
    node bench/compare.js ;;
  serve)
    [[ -f $dist_dir/reader.html ]] || build_all
    say "Serving $dist_dir/ on http://127.0.0.1:${PORT:-8000}/reader.html (Ctrl-C stops)"
    exec python3 -m http.server --bind 127.0.0.1 --directory "$dist_dir" "${PORT:-8000}" ;;
  clean) rm -rf "$build_dir" "$dist_dir" ;;
  *) die "unknown command '$1' (use: build, test, core, fuzz, bench, serve, clean)" ;;
esac
