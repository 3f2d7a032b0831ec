"""Hypothesis profiles of the fuzz suite.

``make test`` runs the small profile (derandomized: the same cases every time, about a
minute on one core). ``FUZZ_PROFILE=large`` runs many more cases, still derandomized;
``FUZZ_PROFILE=random`` draws fresh cases (for hunting, not for CI); ``FUZZ_PROFILE=huge``
(``make fuzz``) runs over 10,000 cases.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_BASE = settings(
    deadline=None,  # each case has its own time limit (tests/fuzz/harness.py)
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile("fuzz-small", _BASE, max_examples=100, derandomize=True)
settings.register_profile("fuzz-large", _BASE, max_examples=600, derandomize=True)
settings.register_profile("fuzz-random", _BASE, max_examples=300, derandomize=False)
# make fuzz: 2,500 examples a test (x0.3 for the file tests), over 12,000 cases (issue 32)
settings.register_profile("fuzz-huge", _BASE, max_examples=2500, derandomize=True)

PROFILE = "fuzz-" + os.environ.get("FUZZ_PROFILE", "small")


def fuzz_settings(scale: float = 1.0) -> settings:
    """The profile's settings, with ``scale`` times its number of examples."""
    base = settings.get_profile(PROFILE)
    return settings(base, max_examples=max(1, int(base.max_examples * scale)))
