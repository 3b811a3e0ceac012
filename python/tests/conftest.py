"""A real pips server for the parity tests, started on 127.0.0.1:0.

The binary is ``$PIPS_BIN``, or the repository's ``target/release/pips``
(build it with ``cargo build --release``)."""

from __future__ import annotations

import base64
import json
import os
import pathlib
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]

# `python -m pytest` run in python/ puts python/ first on the import path,
# where pips/ is the package's source without its extension module (which
# only an install or `maturin develop` builds): the installed package is
# the one to test, so the source folder gives way unless it was built in
# place.
_SOURCE = REPO / "python"
if not any(path.suffix in (".so", ".pyd") for path in (_SOURCE / "pips").glob("_pips*")):
    sys.path[:] = [p for p in sys.path if pathlib.Path(p or ".").resolve() != _SOURCE]
STATE_KEY = "7c" * 32


class Server:
    """A pips server process and its HTTP/JSON API."""

    def __init__(self, env: dict[str, str]) -> None:
        binary = os.environ.get("PIPS_BIN", str(REPO / "target" / "release" / "pips"))
        if not pathlib.Path(binary).exists():
            pytest.fail(f"no pips server at {binary}: run `cargo build --release` or set PIPS_BIN")
        # A key in the caller's environment would sign the plain server's
        # states.
        inherited = {k: v for k, v in os.environ.items() if not k.startswith("PIPS_STATE_KEY")}
        self.process = subprocess.Popen(
            # A search cut short by the server's time cap would answer
            # another move than the same search run to its playout budget.
            [binary, "--addr", "127.0.0.1:0", "--log-format", "json", "--max-suggest-ms", "60000"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            # (No tables file left beside the tests.)
            env={"PIPS_TABLES_DB": "none", **inherited, **env},
        )
        self.base = None
        assert self.process.stdout is not None
        for line in self.process.stdout:
            fields = json.loads(line).get("fields", {})
            if "addr" in fields:
                self.base = f"http://{fields['addr']}"
                break
        if self.base is None:
            self.process.kill()
            pytest.fail("the server did not say where it listens")

    def call(self, rpc: str, body: dict) -> dict:
        """Calls ``POST /v1/<rpc>``; a refusal comes back as its JSON body
        under ``"error"``."""
        request = urllib.request.Request(
            f"{self.base}/v1/{rpc}",
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as refusal:
            return {"error": json.loads(refusal.read())}

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture(scope="session")
def server():
    started = Server({})
    yield started
    started.stop()


@pytest.fixture(scope="session")
def keyed_server():
    started = Server({"PIPS_STATE_KEY": STATE_KEY})
    yield started
    started.stop()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def unb64(text: str) -> bytes:
    return base64.b64decode(text)
