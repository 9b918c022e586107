#!/usr/bin/env bash
# examples/cmake-consumer against this tree, as another project would use loiter:
#   consumer_test.sh subdirectory <source dir> <build dir>   add_subdirectory (nested build)
#   consumer_test.sh installed    <source dir> <build dir>   cmake --install, find_package
# Holds: configuring succeeds; `ctest -N` there lists exactly nginx.<id> for each catalogue
# scenario (none of loiter's own tests); `ctest -L gate` passes silent and partial-header
# against Debian's nginx (two fast scenarios: the whole catalogue takes minutes).
set -euo pipefail
mode=$1 source_dir=$(realpath "$2") build_dir=$(realpath "$3")
work="$build_dir/consumer-$mode"
example="$source_dir/examples/cmake-consumer"
mkdir -p "$work"

configure=(-S "$example" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release)
case $mode in
  subdirectory)
    # Builds loiter's executables only (its tests are not the consumer's); the nested build
    # is kept between runs so a second run is incremental.
    # The flags of loiter's own build (scripts/setup), so ccache serves the nested compiles.
    configure+=(-DLOITER_SOURCE_DIR="$source_dir" -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG"
                -DLOITER_WERROR=ON)
    if command -v ccache >/dev/null; then configure+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
    ;;
  installed)
    rm -rf "$work/prefix" "$work/build"
    cmake --install "$build_dir" --prefix "$work/prefix" >"$work/install.log"
    configure+=(-DCMAKE_PREFIX_PATH="$work/prefix")
    ;;
  *) echo "consumer_test: unknown mode '$mode' (subdirectory or installed)" >&2; exit 2 ;;
esac
cmake "${configure[@]}" >"$work/configure.log" || {
  cat "$work/configure.log"; echo "consumer_test: configuring the example failed" >&2; exit 1; }
cmake --build "$work/build" -j 2 >"$work/build.log" || {
  tail -40 "$work/build.log"; echo "consumer_test: building the example failed" >&2; exit 1; }

# The default run of an HTTP/1.1 target, from the catalogue's data file (id family
# protocol run): the http1, any and every scenarios that run by default.
expected=$(awk '!/^#/ && ($3 == "http1" || $3 == "any" || $3 == "every") && $4 == "default" { print "nginx." $1 }' \
  "$source_dir/suites/catalogue/catalogue.txt" | sort)
listed=$(cd "$work/build" && ctest -N | sed -n 's/^ *Test *#[0-9]*: //p' | sort)
if [ "$listed" != "$expected" ]; then
  echo "consumer_test ($mode): ctest -N lists other tests than the catalogue against nginx:" >&2
  diff <(echo "$expected") <(echo "$listed") >&2 || true
  exit 1
fi
echo "consumer_test ($mode): ctest -N lists the $(echo "$listed" | wc -l) catalogue scenarios, nothing else"

(cd "$work/build" && ctest -L gate -R '^nginx\.(silent|partial-header)$' --output-on-failure \
  | tee "$work/gate.log")
grep -q "100% tests passed, 0 tests failed out of 2" "$work/gate.log" || {
  echo "consumer_test ($mode): ctest -L gate did not pass both scenarios" >&2; exit 1; }
