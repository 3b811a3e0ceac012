#!/usr/bin/env python3
"""Checks the documentation's references: every relative link of every
Markdown file in the repository points at a file or folder that exists
(and, with a `#fragment`, at a heading of that Markdown file, named as
GitHub names it), and every path a document cites in backticks
(`tests/integration/tables.rs`, `python/examples/bench_steps.py`) exists,
from the repository's root or the document's folder.

    scripts/docs-check.py    # exit 1, listing each broken reference
"""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

# A Markdown link or image: [text](target) or ![alt](target "title").
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# A path cited in backticks: a top folder of the repository, then a path.
CITED = re.compile(
    r"`((?:src|tests|docs|scripts|examples|python|proto|web|fuzz|benches|deploy|\.ci)/"
    r"[A-Za-z0-9_./-]*[A-Za-z0-9_/])`"
)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def markdown_files() -> list[pathlib.Path]:
    """The repository's Markdown files that git tracks or would add."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return [ROOT / name for name in listed if (ROOT / name).is_file()]


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation
    dropped (but `-` and `_`), spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = text.replace("`", "").lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(path: pathlib.Path) -> set[str]:
    """Every heading anchor of a Markdown file (repeats numbered -1, -2)."""
    seen: dict[str, int] = {}
    found = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        # An explicit anchor: <a id="…"> or <a name="…">.
        for name in re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", line):
            found.add(name)
    return found


def check(path: pathlib.Path, cache: dict[pathlib.Path, set[str]]) -> list[str]:
    """The broken references of one document, each as `file:line: why`."""
    broken = []
    shown = path.relative_to(ROOT)
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for target in LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, …
                continue
            file_part, _, fragment = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            if not linked.exists():
                broken.append(f"{shown}:{number}: the link {target} names no file")
                continue
            if fragment and linked.suffix == ".md":
                names = cache.setdefault(linked, anchors(linked))
                if fragment not in names:
                    broken.append(f"{shown}:{number}: the link {target} names no heading there")
        for cited in CITED.findall(line):
            if not ((ROOT / cited).exists() or (path.parent / cited).exists()):
                broken.append(f"{shown}:{number}: `{cited}` is cited but does not exist")
    return broken


def main() -> int:
    cache: dict[pathlib.Path, set[str]] = {}
    files = markdown_files()
    broken = [problem for path in files for problem in check(path, cache)]
    for problem in broken:
        print(problem)
    print(f"docs: {len(files)} Markdown files, {len(broken)} broken references")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
