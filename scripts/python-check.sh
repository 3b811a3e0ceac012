#!/usr/bin/env bash
# The Python package: installed from the checkout with the README's one
# command into a fresh virtual environment, then its pytest suite (the
# parity tests start the release binary given as $1).
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$(realpath "${1:-target/release/pips}")"
venv=target/python-venv
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
# The README's command, then what the tests use: PettingZoo's and
# OpenSpiel's own test suites run on the environments.
"$venv/bin/python" -m pip install --quiet ./python
"$venv/bin/python" -m pip install --quiet pytest pettingzoo gymnasium open_spiel
# Run from outside the checkout, so that `import pips` finds the installed
# package, not the source folder.
(cd python/tests && PIPS_BIN="$binary" "../../$venv/bin/python" -m pytest -q -p no:cacheprovider .)
# Where a user runs them: pytest from python/ (the source folder must not
# hide the installed package), and the gRPC examples beside an installed
# `pips` package (their generated `pips.v1` must not be hidden by it).
(cd python && PIPS_BIN="$binary" "../$venv/bin/python" -m pytest -q -p no:cacheprovider tests/test_batch.py)
"$venv/bin/python" -m pip install --quiet -r examples/bots/python/requirements.txt \
    -r examples/clients/python/requirements.txt
for example in examples/bots/python/bot.py examples/clients/python/play.py; do
    dir=$(dirname "$example")
    mkdir -p "$dir/gen"
    "$venv/bin/python" -m grpc_tools.protoc -I proto --python_out="$dir/gen" \
        --grpc_python_out="$dir/gen" proto/pips/v1/*.proto
    "$venv/bin/python" "$example" --help > /dev/null
done
