#!/bin/bash
# bench/verify.sh - what --verify costs here: CRC32C GB/s per path, the per-block cost of
# stamping and checking, and the overhead on buffered writes at 1 MiB and 8 KiB blocks
# (plain and stamped writes alternated, median of the per-pair ratios).
#   bench/verify.sh [DIR] [SIZE_MB] [ROUNDS]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/bench/verify_speed
[ -x "$bin" ] || { echo "bench: build it first (make bench/verify_speed)" >&2; exit 2; }
exec "$bin" "${1:-/tmp}" "${2:-256}" "${3:-9}"
