"""Suite-wide configuration: Hypothesis profiles, chosen with HYPOTHESIS_PROFILE (default "dev")."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("dev")
settings.register_profile("ci", deadline=None, derandomize=False, max_examples=50)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
