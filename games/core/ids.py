"""Per-role opaque aliases for hidden pieces (architecture 8.7).

An alias is a truncated HMAC over (a salt kept secret in the state, the viewing role, an epoch, the
piece id). The engine changes the epoch whenever the rules say the viewer loses track of a piece
(for Napoleon's Triumph: the shuffle at every turn end), so no alias follows a piece across a mix.
"""

from __future__ import annotations

import hashlib
import hmac


def alias(salt: str, role: str, epoch: int, piece_id: str, prefix: str = "") -> str:
    msg = f"{role}\x1f{epoch}\x1f{piece_id}".encode()
    digest = hmac.new(salt.encode(), msg, hashlib.sha256).hexdigest()[:10]
    return f"{prefix}{digest}"
