"""python/README.md's examples run as written (its training loop shortened)."""

from __future__ import annotations

import contextlib
import io
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_the_readmes_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert len(blocks) >= 5
    names: dict = {}
    for block in blocks:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(block.replace("range(1000)", "range(10)"), names)  # noqa: S102
