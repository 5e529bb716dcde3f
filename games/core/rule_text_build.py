"""Build a ruleset's rules-text file from its digests (English, with rule ids):

    python -m games.core.rule_text_build OUT.yaml DIGEST.md [DIGEST.md ...] [--prefix NT-]

Every bullet that opens with a bold rule id (`* **NT-10** ...` or `* **NT-141 (title).** ...`)
becomes one entry, with its continuation lines and the section heading it stands under. Rule ids
must not repeat across the digests. The output names each digest and its sha256 as its source.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

import yaml

BULLET = re.compile(
    r"^\* \*\*(?P<rule>[A-Z]+(?:-[A-Z]+)*-\d+)(?: \((?P<title>[^)]*)\))?\.?\*\*\.?\s*"
)
HEADING = re.compile(r"^#{2,4} (?P<section>.+)$")


def parse(text: str, prefix: str) -> dict[str, dict[str, str]]:
    """rule id -> {section, title, text} for each rule bullet of one digest."""
    out: dict[str, dict[str, str]] = {}
    section, current = "", ""
    lines: list[str] = []

    def close() -> None:
        if current:
            text = ""
            for s in (x.strip() for x in lines):
                if s:  # a nested list item starts a line of its own
                    text += ("\n" if s.startswith(("* ", "- ")) else " ") + s
            out[current]["text"] = text.strip()

    for line in text.splitlines():
        heading = HEADING.match(line)
        bullet = BULLET.match(line)
        if heading or bullet or (current and not line.startswith("  ")):
            close()
            current, lines = "", []
        if heading:
            section = heading.group("section").strip()
        elif bullet and bullet.group("rule").startswith(prefix):
            current = bullet.group("rule")
            if current in out:
                raise ValueError(f"rule {current} appears twice")
            out[current] = {"section": section, "title": bullet.group("title") or ""}
            lines = [line[bullet.end() :]]
        elif current:
            lines.append(line)
    close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("digests", type=Path, nargs="+")
    parser.add_argument("--prefix", default="", help="keep only rule ids starting with this")
    args = parser.parse_args(argv)
    rules: dict[str, dict[str, str]] = {}
    sources = []
    for digest in args.digests:
        raw = digest.read_bytes()
        found = parse(raw.decode("utf-8"), args.prefix)
        twice = sorted(set(found) & set(rules))
        if twice:
            raise SystemExit(f"{digest.name}: rule ids already read: {', '.join(twice)}")
        rules.update(found)
        sources.append(f"{digest.name} sha256:{hashlib.sha256(raw).hexdigest()}")
        sys.stderr.write(f"{digest.name}: {len(found)} rules\n")
    order = sorted(rules, key=lambda r: (r.rsplit("-", 1)[0], int(r.rsplit("-", 1)[1])))
    doc = {
        "source": "built by games.core.rule_text_build from the project's English rules digests: "
        + "; ".join(sources),
        "rules": {r: rules[r] for r in order},
    }
    args.out.write_text(
        yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=100), encoding="utf-8"
    )
    sys.stderr.write(f"wrote {args.out}: {len(rules)} rules\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
