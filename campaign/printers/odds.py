"""The odds of a campaign battle before it was fought: a quick seeded re-run of its forces.

For a :class:`~campaign.events.BattleFought`, :class:`OddsBook` fights the same two forces
(each unit with the actual hits it carried in, RULES.md §1.2), the same attacker and the same
rules ``n`` times (default 200) and counts who won. The generator is the campaign seed's
stream ``ODDS | stream`` of the battle's own stream (``battle_seed``, :mod:`campaign.streams`,
RULES.md §0.6), so the odds are the same on every run and never touch the campaign's dice.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from battle.errors import SimulatorError
from battle.yamlfile import safe_load_text
from campaign.analysis.refight import refight_odds, setup_on
from campaign.clock import Clock
from campaign.config import Rules
from campaign.events import SIDES, BattleFought, CampaignEvent, CampaignStarted, Forked
from campaign.streams import ODDS

__all__ = [
    "ODDS_BATTLES",
    "ODDS_KEY",
    "Odds",
    "OddsBook",
    "RulesOverTime",
    "odds_for",
    "odds_of_stream",
    "odds_phrase",
    "rules_for",
]

#: Battles fought per estimate (house: 200 keeps a diary quick; the 95% interval of a 50%
#: chance is then about ±7 points).
ODDS_BATTLES = 200
#: The stream bit that keeps the odds' generator apart from every campaign stream.
ODDS_KEY = ODDS

_SIDES = SIDES


@dataclass(frozen=True)
class Odds:
    """Wins of each side and draws out of ``n`` simulated battles."""

    n: int
    wins: dict[str, int]
    draws: int

    def chance(self, side: str | None) -> float:
        """Fraction (0-1) of the simulated battles with this outcome (None: a draw)."""
        return (self.draws if side is None else self.wins[side]) / self.n


class OddsBook:
    """Odds of each battle of one campaign (cached by the battle's seed key).

    Parameters
    ----------
    rules : battle.rules.Rules
        The rules the campaign was fought under (``LoadedRules.rules``).
    seed : int
        The campaign's seed.
    n : int
        Battles per estimate, 1 to 10,000.

    Raises
    ------
    ValueError
        If ``n`` is out of range.
    """

    def __init__(self, rules: Rules, seed: int, n: int = ODDS_BATTLES) -> None:
        if not 1 <= n <= 10_000:
            raise ValueError(f"odds battles must be 1 to 10,000, not {n}")
        self.rules, self.seed, self.n = rules, seed, n
        self._cache: dict[tuple[object, ...], Odds | None] = {}

    def __call__(self, b: BattleFought) -> Odds | None:
        """The odds of ``b``, or None when a side brought no unit that could fight."""
        forces = tuple((u.id, u.side, u.kind, u.hits_before) for u in b.units)
        key = (tuple(b.battle_seed), b.attacker, b.bounds, b.reason, forces, b.joined)
        if key not in self._cache:
            self._cache[key] = self._estimate(b)
        return self._cache[key]

    def _estimate(self, b: BattleFought) -> Odds | None:
        # the battle as it stood at its start: the hits carried in, the late arrivals at the
        # bounds they came (RULES.md §8.4) and the bounds of daylight left (§8.3), whatever
        # ended it; fought from the odds' own stream (campaign.analysis.refight)
        clock = Clock(self.rules.campaign.day_start_minutes, self.rules.campaign.day_end_minutes)
        try:
            setup = setup_on(b, 0, self.rules, clock, {})
        except SimulatorError:  # a side brought no unit that could fight
            return None
        tally = refight_odds(setup, self.rules, self.seed, self.n)
        return Odds(self.n, tally.wins, tally.draws)


class RulesOverTime:
    """Odds of each battle of a forked campaign (``campaign fork``) under the rules it was
    fought under: the campaign's own before its first fork, each fork's from the start of its
    minute on (a battle begun at a fork's minute is fought under the fork's rules). The
    stream is the campaign seed's, as :class:`OddsBook`'s.

    Parameters
    ----------
    books : sequence of (float, OddsBook)
        From which campaign minute each book's rules hold, the first from minute 0, in
        ascending order.

    Raises
    ------
    ValueError
        If ``books`` is empty or its minutes do not start at 0 and ascend.
    """

    def __init__(self, books: Sequence[tuple[float, OddsBook]]) -> None:
        minutes = [m for m, _ in books]
        if not minutes or minutes[0] != 0 or minutes != sorted(minutes):
            raise ValueError(f"odds books start at minute 0 and ascend, not {minutes}")
        self.minutes, self.books = minutes, [b for _, b in books]

    def __call__(self, b: BattleFought) -> Odds | None:
        """The odds of ``b`` under the rules in force when it began (``b.t``)."""
        return self.books[bisect_right(self.minutes, b.t) - 1](b)


_WORDS = {1: "once", 2: "twice"}


def odds_phrase(p: float) -> str:
    """A chance as a player says it: ``one time in four``, ``nine times in ten``, ``rarely``.

    >>> odds_phrase(0.25), odds_phrase(0.5), odds_phrase(0.9), odds_phrase(0.02)
    ('one time in four', 'one time in two', 'nine times in ten', 'almost never')
    """
    if p < 0.05:
        return "almost never"
    if p > 0.95:
        return "almost always"
    best = min(
        ((k, n) for n in (2, 3, 4, 5, 6, 10) for k in range(1, n)),
        key=lambda kn: (abs(kn[0] / kn[1] - p), kn[1]),
    )
    k, n = best
    numbers = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    times = "time" if k == 1 else "times"
    return f"{numbers[k]} {times} in {numbers[n]}"


def rules_for(header: object) -> Rules | None:
    """The rules a saved stream's :class:`~campaign.events.CampaignStarted` header names, or
    None when they cannot be rebuilt exactly.

    The header's ``rules`` label (``default``, ``two-dice``, ``two-dice+key=value``) names
    the variants and overrides; the rebuilt rules must have the header's ``rules_hash``,
    else they would be other rules and None is returned.
    """
    import yaml

    from campaign.config import load_rules
    from campaign.errors import SimulatorError

    label = str(getattr(header, "rules", "") or "")
    if not label:
        return None
    variants: list[str] = []
    overrides: dict[str, object] = {}
    for part in label.split("+"):
        if part == "default":  # the label of no variants, also before overrides
            continue
        if "=" in part:
            for item in part.split(","):
                key, _, value = item.partition("=")
                overrides[key] = safe_load_text(value) if value else value
        else:
            variants.append(part)
    try:
        loaded = load_rules(variants, overrides)
    except (SimulatorError, yaml.YAMLError):
        return None
    if loaded.hash != getattr(header, "rules_hash", None):
        return None
    return loaded.rules


def odds_for(header: object) -> OddsBook | None:
    """An :class:`OddsBook` for a saved stream's :class:`~campaign.events.CampaignStarted`
    header, or None when its rules cannot be rebuilt exactly (:func:`rules_for`): the odds
    would be those of other rules and are left out.
    """
    seed = getattr(header, "seed", None)
    rules = rules_for(header)
    if rules is None or not isinstance(seed, int):
        return None
    return OddsBook(rules, seed)


def odds_of_stream(stream: Sequence[CampaignEvent]) -> OddsBook | RulesOverTime | None:
    """The odds of every battle of a saved event stream under the rules it was fought under:
    its header's (:func:`odds_for`), and each :class:`~campaign.events.Forked` event's from
    its minute on (:class:`RulesOverTime`). None when there is no header, or the rules of
    the header or of a fork cannot be rebuilt exactly (:func:`rules_for`): some odds would
    be those of other rules, and all are left out.
    """
    header = next((e for e in stream if isinstance(e, CampaignStarted)), None)
    first = odds_for(header)
    forks = [e for e in stream if isinstance(e, Forked)]
    if first is None or not forks:
        return first
    books: list[tuple[float, OddsBook]] = [(0.0, first)]
    for fork in forks:
        rules = rules_for(fork)
        if rules is None:
            return None
        books.append((float(fork.t), OddsBook(rules, first.seed, first.n)))
    return RulesOverTime(books)
