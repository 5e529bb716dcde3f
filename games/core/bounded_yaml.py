"""Reading a data file's YAML safely: bounded before PyYAML builds anything.

`read_bounded(path)` refuses a file over `MAX_BYTES` before reading it whole and one that is not
UTF-8; `parse_yaml(text)` refuses a text over `MAX_BYTES`, nesting deeper than `MAX_DEPTH`, and any
anchor or alias (no "billion laughs"), then `yaml.safe_load`s it. Every refusal is a `YamlRefused`
saying why. `at` and `idx` write the YAML paths a problem names (``units[3].hex``).
Used by the engines that read data files (Commands & Colors, Valour & Fortitude).
"""

from __future__ import annotations

from pathlib import Path

import yaml

MAX_BYTES = 1 << 20  # 1 MiB
MAX_DEPTH = 12


class YamlRefused(ValueError):
    """The text is too large, too deep, uses anchors or aliases, is not UTF-8 or not YAML."""


def read_bounded(path: Path, max_bytes: int = MAX_BYTES) -> str:
    """The file's UTF-8 text, refusing a file over `max_bytes` before reading it whole."""
    try:
        if path.stat().st_size > max_bytes:
            raise YamlRefused(f"{path.name} is larger than {max_bytes} bytes")
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise YamlRefused(f"cannot read {path.name}: {exc.strerror or exc}") from exc
    if len(data) > max_bytes:
        raise YamlRefused(f"{path.name} is larger than {max_bytes} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlRefused(f"{path.name} is not UTF-8: {exc}") from exc


def parse_yaml(text: str, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> object:
    """The YAML document in `text`, bounded (see the module's text)."""
    if len(text.encode("utf-8")) > max_bytes:
        raise YamlRefused(f"the text is larger than {max_bytes} bytes")
    try:
        depth = 0
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise YamlRefused("YAML anchors and aliases are not allowed")
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > max_depth:
                    raise YamlRefused(f"the document is nested deeper than {max_depth}")
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
        loaded: object = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise YamlRefused(f"not valid YAML: {exc}") from exc
    return loaded


def at(path: str, key: str) -> str:
    """The path of `key` inside `path`: ``sides.top``."""
    return f"{path}.{key}" if path else key


def idx(path: str, index: int) -> str:
    """The path of item `index` inside `path`: ``units[3]``."""
    return f"{path}[{index}]"
