"""The test oracle of the `./dev serve` browser game, run as a program on that server's own
embedded database (its SQLite file under PBEM_DATA_DIR), since the test process's Django is set
up on the tests' PostgreSQL:

    python -m tests.integration.browser.dev_oracle GAME_ID SEED

prints one JSON line: `{"prompted": [roles], "order": {"role", "kind", "text"} | null}`, the
order being what `nt_oracle.Steering` chooses for the first prompted role (the seed varies the
choice between calls). The players type that text; the pages learn nothing from here.
"""

from __future__ import annotations

import json
import os
import sys


def main(argv: list[str]) -> int:
    game_id, seed = argv[0], int(argv[1])
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pbem.settings")
    import django

    django.setup()
    from games.core.rng import Rng
    from tests.integration.browser.nt_oracle import Steering, prompted

    roles = prompted(game_id)
    order = Steering(game_id, Rng(seed)).choose(roles[0]) if roles else None
    found = None if order is None else {"role": order.role, "kind": order.kind, "text": order.text}
    sys.stdout.write(json.dumps({"prompted": roles, "order": found}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
