#!/usr/bin/env bash
# Prepares a Python example directory for running: a virtual environment
# shared by the examples (target/ci-tools/botvenv) with the directory's
# requirements.txt installed, and the pips.v1 code generated into its gen/.
# Prints the environment's python.
#
#   python=$(scripts/python-example.sh examples/clients/python)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
venv="$root/target/ci-tools/botvenv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" >&2
fi
"$venv/bin/pip" install --quiet -r "$dir/requirements.txt" >&2
mkdir -p "$dir/gen"
"$venv/bin/python" -m grpc_tools.protoc -I "$root/proto" --python_out="$dir/gen" \
    --grpc_python_out="$dir/gen" "$root"/proto/pips/v1/*.proto >&2
echo "$venv/bin/python"
