"""Why a campaign or a battle ended, as stable codes with an English text (results tables).

Campaign ends are classified from the engine's sentence (``CampaignResult.reason``) by
:data:`RUN_REASONS`, first match wins; a sentence no pattern knows gets ``other`` (a test
runs campaigns and checks that none does). Battle ends already are codes
(``BattleResult.reason``); :data:`BATTLE_REASONS` gives their text.
"""

from __future__ import annotations

import re

__all__ = ["BATTLE_REASONS", "RUN_REASONS", "battle_reason_text", "run_reason_code"]

#: ``(code, pattern, meaning)`` of every way a campaign ends (RULES.md §7.6, §8.7).
RUN_REASONS: tuple[tuple[str, str, str], ...] = (
    ("base-taken", r"holds? the enemy base", "a side holds the enemy's base (§8.7)"),
    (
        "bases-exchanged",
        r"each side holds the other's base",
        "each side holds the other's base at nightfall: a draw (§8.7)",
    ),
    ("both-withdrew", r"both armies withdrew", "both armies withdrew the same evening: a draw"),
    ("withdrawal", r"withdrew from the campaign", "a side withdrew at its evening check (§7.6)"),
    ("both-destroyed", r"neither side has a division", "no division left on either side: a draw"),
    ("no-divisions", r"(has|have) no divisions left", "a side has no division left (§8.7)"),
    ("objectives-even", r"objectives even", "time limit, objective value even: a draw"),
    ("objectives", r"holds? more objective value", "time limit, more objective value wins (§8.7)"),
    ("time-limit", r"time limit reached", "time limit with nothing decided: a draw"),
    ("event-cap", r"event cap reached", "the engine's event cap stopped it: a draw"),
)

#: Battle end codes (``BattleResult.reason``, RULES.md §3.4, §6.8, §7, §8.3) and their text.
BATTLE_REASONS: dict[str, str] = {
    "cards": "the loser was down to its last movement card",
    "both-cards": "both sides reached their last movement card together: a draw",
    "withdrawal": "the loser withdrew after a withdrawal check",
    "both-withdrew": "both sides withdrew: a draw",
    "no-units": "the loser had no unit left on the field",
    "turn-limit": "the turn limit was reached: a draw",
    "nightfall": "nightfall ended it: a draw",
    "table": "fought on the table, its result entered by hand (issue 28)",
}

_COMPILED = tuple((code, re.compile(pattern)) for code, pattern, _ in RUN_REASONS)


def run_reason_code(text: str) -> str:
    """The code of a campaign's end sentence, or ``other``.

    >>> run_reason_code("Red withdrew from the campaign (evening withdrawal check, §7.6)")
    'withdrawal'
    """
    for code, pattern in _COMPILED:
        if pattern.search(text):
            return code
    return "other"


def battle_reason_text(code: str) -> str:
    """The English text of a battle end code (the code itself if unknown)."""
    return BATTLE_REASONS.get(code, code)
