#!/usr/bin/env bash
# The lockstep check of `puerto_rican` against PyPI `dominoes` 6.1.0 (an
# independent implementation of the same game): random matches from
# examples/lockstep.rs, replayed move by move in the package by
# scripts/dominoes-lockstep.py, in a virtual environment of its own. Fails
# with the first disagreement.
#
#   scripts/dominoes-lockstep.sh target/release/examples/lockstep [HANDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
trace=$1
hands=${2:-2000}
venv="$root/target/ci-tools/dominoes-venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet "dominoes==6.1.0"
"$trace" --variant puerto_rican --hands "$hands" --seed 1 \
    | "$venv/bin/python" "$root/scripts/dominoes-lockstep.py"
