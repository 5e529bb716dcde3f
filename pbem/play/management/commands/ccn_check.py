"""`manage.py ccn_check FILE [FILE ...]`: check Commands & Colors: Napoleonics data files
(scenarios, nations files, board profiles; told apart by their `format`).

Prints `OK <file>` for a fine file (and `WARNING <file>: ...` for each warning), else
`<file>: <problem>` for each problem; exits 0 when every file is fine, 1 otherwise. A file over
1 MiB is refused unread. The checking itself is the pure `games` function `check_file_report`.
"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.commands_colors_napoleonics.check import check_file_report

MAX_BYTES = 1 << 20  # 1 MiB


class Command(BaseCommand):
    help = "Check Commands & Colors: Napoleonics scenario, nations and board files."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("files", nargs="+", help="YAML files to check")

    def handle(self, *args: Any, **options: Any) -> None:
        failed = 0
        for name in options["files"]:
            problems = self._check(str(name))
            failed += bool(problems)
        if failed:
            raise CommandError(
                f"{failed} of {len(options['files'])} file(s) have problems", returncode=1
            )

    def _check(self, name: str) -> list[str]:
        path = Path(name)
        try:
            size = path.stat().st_size
        except OSError as exc:
            problems = [f"cannot read the file: {exc.strerror or exc}"]
        else:
            if size > MAX_BYTES:
                problems = [f"the file has {size} bytes, more than the {MAX_BYTES} allowed"]
            else:
                report = check_file_report(path)
                problems = list(report.problems)
                for warning in report.warnings:
                    self.stdout.write(f"WARNING {name}: {warning}")
        if not problems:
            self.stdout.write(f"OK {name}")
        for problem in problems:
            self.stdout.write(f"{name}: {problem}")
        return problems
