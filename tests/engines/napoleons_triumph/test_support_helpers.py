"""The test helpers for outside test writers (tests/support/napoleons_triumph.py) work as the
engine's README documents them: its "Testing from outside" example runs as written, and the
helpers stay out of the runtime package."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import games.napoleons_triumph as engine

README = Path(engine.__file__).resolve().parent / "README.md"


def _example(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert found is not None, f"no python example under '{title}'"
    return found.group(1)


def test_readme_testing_example_runs() -> None:
    """The README example refuses an illegal move (NT-48 at /to) and plays a legal one; its
    asserts are the test (exec of the README's own text, so a stale example fails here)."""
    code = _example("Testing from outside")
    assert "from tests.support.napoleons_triumph import" in code
    namespace: dict[str, object] = {}
    exec(compile(code, str(README), "exec"), namespace)  # noqa: S102 - the repo's own README
    assert "t" in namespace


def test_helpers_are_not_in_the_runtime_package() -> None:
    """The engine package ships no test helpers: `games.napoleons_triumph.testing` is gone."""
    assert importlib.util.find_spec("games.napoleons_triumph.testing") is None
