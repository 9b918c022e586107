#!/usr/bin/env bash
# The Debian package: scripts/package makes loiter_<version>_amd64.deb; its control names
# the runtime libraries in Depends; its contents, unpacked into a temporary prefix (not
# installed: no root here), give a working `loiter check --scenario silent` against the
# reference server from that prefix, not the build's.
#   package_test.sh <source dir> <build dir>
set -euo pipefail
source_dir=$(realpath "$1") build_dir=$(realpath "$2")
work="$build_dir/package-test"
rm -rf "$work"
mkdir -p "$work"

BUILD_DIR="$build_dir" "$source_dir/scripts/package" "$work" >"$work/package.log" 2>&1 || {
  tail -40 "$work/package.log"; echo "package_test: scripts/package failed" >&2; exit 1; }
deb=$(ls "$work"/loiter_*_amd64.deb)
echo "package_test: $(basename "$deb")"

dpkg-deb -I "$deb" | tee "$work/control.txt"
for library in libboost-json libfmt libssl libstdc++6 libc6; do
  grep -q "^ Depends:.*$library" "$work/control.txt" || {
    echo "package_test: Depends does not name $library" >&2; exit 1; }
done

dpkg-deb -x "$deb" "$work/root"
for file in usr/bin/loiter usr/bin/loiter-reference-server usr/share/loiter/targets/nginx.toml \
            usr/lib/cmake/loiter/loiterConfig.cmake; do
  [ -e "$work/root/$file" ] || { echo "package_test: the package has no /$file" >&2; exit 1; }
done

# The reference server is found beside the unpacked loiter (the build's must not be used).
unset LOITER_REFERENCE_SERVER
"$work/root/usr/bin/loiter" check --scenario silent --runs "$work/runs" | tee "$work/check.log"
grep -q "1 passed, 0 failed" "$work/check.log"
grep -rq "$work/root/usr/bin/loiter-reference-server" "$work/runs" || {
  echo "package_test: the run did not use the packaged reference server" >&2; exit 1; }
echo "package_test: the unpacked loiter passed silent with its own reference server"
