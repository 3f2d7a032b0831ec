"""A fork: from one minute of a campaign on, other rules, doctrines or dice (issue 28, item 3).

:func:`apply_fork` changes a running campaign in place, at the start of the fork's minute,
before anything of that minute happens. What it changes, and what it keeps:

- **Rules** (``--set``, ``--variant``): every rule read as the campaign goes on — battles
  and their rules (RULES.md §1-§7), rough roads (§8.2), fall backs (§8.5), sight (§8.6), the
  evening withdrawal check (§7.6), doctrines' numbers (§8.8) — is read from the new rules
  from the fork minute on. The calendar stays as the campaign began it: the clock's dawn
  and nightfall (§8.3), the time limit and the armies already raised (§2.1, §8.9) are set at
  the start. A battle under way at the fork minute that a division joins afterwards is
  fought again (§8.4) under the new rules and dice.
- **Doctrines** (``--red-doctrine``, ``--blue-doctrine``): the side's strategist decides by
  the new doctrine from the fork minute on, remembering what it knew (its memory of its
  divisions' plans, the enemy it saw fall back).
- **Dice** (``--reseed``): every stream the campaign draws from after the fork minute —
  marches, roll-offs and withdrawal checks, raising reinforcements, the doctrines' choices,
  each battle from the next (RULES.md §0.6, :mod:`campaign.streams`) — is that of the fork's
  ``future_seed``, each from its start. Without it the campaign's own dice go on, so a fork
  that changes nothing plays the original future exactly.

The campaign's seed (its log header, the odds lines) stays its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from battle.dice import Dice
from campaign.config import LoadedRules
from campaign.events import SIDES, CampaignEvent, Forked
from campaign.setting import setting_of
from campaign.strategy import Strategist
from campaign.streams import FORCES, MARCH, STRATEGY, Streams

if TYPE_CHECKING:
    from campaign.engine import Campaign
    from campaign.save.format import Fork, SaveInputs

__all__ = ["apply_fork", "change_doctrine", "change_rules", "reseed", "with_forks"]


def apply_fork(camp: Campaign, fork: Fork, loaded: LoadedRules | None = None) -> None:
    """Apply ``fork`` to ``camp`` now (at the start of ``fork.minute``): its rules when they
    differ from the campaign's, each side's doctrine that differs, its dice when it has a
    ``future_seed``. A fork that changes nothing leaves ``camp`` untouched. ``loaded``: the
    fork's rules already loaded (a batch's cell), used when their hash is the fork's.

    Raises
    ------
    SaveError
        If the fork's rules come to another hash than it records.
    """
    from campaign.save.replay import load_rules_of

    if fork.rules.hash != camp.loaded.hash:
        if loaded is None or loaded.hash != fork.rules.hash:
            loaded = load_rules_of(fork.rules, "inputs.forks.rules")
        change_rules(camp, loaded)
    for side in SIDES:
        if fork.doctrines[side] != camp.doctrines[side]:
            change_doctrine(camp, side, fork.doctrines[side])
    if fork.future_seed is not None:
        reseed(camp, fork.future_seed)


def change_rules(camp: Campaign, loaded: LoadedRules) -> None:
    """``camp`` plays under ``loaded`` from now on (the clock and calendar kept: see the
    module docstring); each side's strategist reads the new rules' doctrines."""
    setting = setting_of(camp.map, loaded)
    camp.loaded = loaded
    camp.rules = setting.rules
    camp.cr = setting.cr
    camp.unknown_boxes = setting.unknown_boxes
    camp.lost_as = setting.lost_as
    camp.destroyed_at = setting.destroyed_at
    camp.max_events = setting.max_events
    camp.hold_minutes = setting.hold_minutes
    camp.roads = setting.roads
    camp.roads_from = setting.roads_from
    camp.neighbourhood = setting.neighbourhood
    camp.desk.rules_changed()
    camp.endgame.rules_changed()
    for side in SIDES:
        change_doctrine(camp, side, camp.doctrines[side])


def change_doctrine(camp: Campaign, side: str, doctrine: str) -> None:
    """``side`` decides by ``doctrine`` (of the campaign's current rules) from now on; its
    strategist keeps its dice, its memory of its divisions and what it saw of the enemy.

    Raises
    ------
    ConfigError
        If ``doctrine`` is not one of the rules' doctrines.
    """
    from campaign.strategy import check_doctrines

    doctrines = {**camp.doctrines, side: doctrine}
    check_doctrines(doctrines, camp.cr.doctrines)
    old = camp.strategists[side]
    new = Strategist(side, camp.cr.doctrines[doctrine], camp.graph, camp.cr, old.rng)
    new.memory = old.memory
    new.fled = old.fled
    camp.strategists[side] = new
    camp.doctrines = doctrines


def reseed(camp: Campaign, seed: int) -> None:
    """Every stream ``camp`` draws from from now on is that of ``seed``, from its start
    (:mod:`campaign.streams`); the side order of the minute (drawn once, at the start) stays."""
    streams = Streams(seed)
    camp.streams = streams
    camp.forces_dice = Dice(streams.generator(FORCES))
    camp.dice = Dice(streams.generator(MARCH))
    for side in SIDES:
        camp.strategists[side].rng = streams.generator(STRATEGY[side])


def with_forks(
    events: Sequence[CampaignEvent],
    inputs: SaveInputs,
    forks: Sequence[tuple[Fork, LoadedRules]],
    until: float,
) -> list[CampaignEvent]:
    """``events`` (the log of the campaign of ``inputs``, up to campaign minute ``until``)
    with a :class:`~campaign.events.Forked` event for each of ``forks`` (each with its rules
    loaded) made by then that changes something (rules, a doctrine, the dice), where it was
    made: before the first event of its minute or later (a fork is applied at the start of
    its minute, before anything of it happens), after the header, else last. The log of a
    save says where it forked, and a diary made from it gives each battle the odds of its
    own rules. A fork that changes nothing plays the same campaign and is not told, nor one
    after ``until`` (the campaign ended before it)."""
    out = list(events)
    rules, doctrines = inputs.rules.hash, inputs.doctrines
    for fork, loaded in forks:
        reseeded = fork.future_seed is not None
        same = loaded.hash == rules and fork.doctrines == doctrines and not reseeded
        rules, doctrines = loaded.hash, fork.doctrines
        if same or fork.minute > until:
            continue
        at = next((k for k, e in enumerate(out) if k > 0 and e.t >= fork.minute), len(out))
        told = Forked(int(fork.minute), loaded.label, loaded.hash, dict(doctrines), reseeded)
        out.insert(at, told)
    return out
