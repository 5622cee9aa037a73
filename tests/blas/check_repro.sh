#!/usr/bin/env bash
# The BLAS's reproducibility contract: tessera-blas-repro (repro_main.cc)
# prints one hash of its level-3 outputs; it must be the same under 1, 2
# and 3 workers (TESSERA_NUM_THREADS), whatever the machine's cores.
#
#   check_repro.sh <tessera-blas-repro> [launcher...]
set -euo pipefail
program="$1"
shift
first=""
for threads in 1 2 3; do
  h="$(TESSERA_NUM_THREADS=$threads "$@" "$program")"
  echo "TESSERA_NUM_THREADS=$threads: $h"
  if [ -z "$first" ]; then
    first="$h"
  elif [ "$h" != "$first" ]; then
    echo "FAIL: the outputs' bits differ between 1 and $threads workers" >&2
    exit 1
  fi
done
