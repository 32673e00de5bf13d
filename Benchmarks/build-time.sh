#!/usr/bin/env bash
# Times a clean debug build of the ValueStore package and its tests, as a developer or CI pays it
# after a fresh clone: `swift build --build-tests` into a new, empty scratch directory.
#
#   Benchmarks/build-time.sh [PACKAGE_PATH]   # default: the package this script sits in
#
# Prints wall seconds, and CPU seconds, which vary less when other work shares the machine.
# The package has no dependencies, so nothing is fetched. TMPDIR points into the scratch directory
# so that SwiftPM's lock files go away with it.
set -euo pipefail

package_path="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/vs-build-time.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

TIMEFORMAT='%R %U %S'
if ! { time TMPDIR="$scratch" swift build --build-tests \
  --package-path "$package_path" --scratch-path "$scratch/build" >"$scratch/log" 2>&1; } 2>"$scratch/time"; then
  cat "$scratch/log" >&2
  exit 1
fi
read -r wall user system <"$scratch/time"

printf 'clean debug build of %s with tests: %s s wall (%s s user + %s s system CPU, %s cores)\n' \
  "$package_path" "$wall" "$user" "$system" "$(getconf _NPROCESSORS_ONLN)"
