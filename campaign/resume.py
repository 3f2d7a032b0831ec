"""Stop a campaign at any minute, hand over its state, and go on from that state (issue 26,
item 3; the ground of issue 28's save, resume and fork).

A campaign's future depends on more than its state's facts: its random streams' positions
and the order of what is due within a minute. A save is therefore event-sourced, as SimPy
users do it (an environment cannot be pickled): the state carries the campaign's inputs
(:class:`campaign.state.Inputs`), and :func:`resume` builds the campaign again from them,
runs it to the state's minute and checks that it is in exactly that state before handing
it over. Run on, it goes to the same end, event for event, as a campaign never stopped.

Example
-------
>>> from campaign.config import load_rules
>>> from campaign.maps import load_map
>>> cmap, rules = load_map(), load_rules()
>>> saved = stop_at(cmap, rules, seed=3, minute=2000)
>>> resume(saved, cmap, rules).finish().winner == run_to_end(cmap, rules, 3).winner
True
"""

from __future__ import annotations

from typing import Protocol, Unpack

from campaign.config import LoadedRules
from campaign.engine import Campaign, Recording
from campaign.maps import CampaignMap
from campaign.result import CampaignResult
from campaign.snapshot import inputs_of
from campaign.state import CampaignState, StateFormatError
from campaign.table_result import TableResult

__all__ = [
    "CampaignInputs",
    "StateMismatch",
    "first_difference",
    "new_campaign",
    "resume",
    "run_to_end",
    "stop_at",
]


class StateMismatch(StateFormatError):
    """A state that the campaign rebuilt from its inputs does not reach: other code, map or
    rules than wrote it, or a state edited by hand."""


def stop_at(
    cmap: CampaignMap,
    loaded: LoadedRules,
    seed: int,
    minute: float,
    doctrines: dict[str, str] | None = None,
) -> CampaignState:
    """The state of campaign ``seed`` at the start of ``minute`` (> 0), or at its end if it
    ends first (then ``over`` is true)."""
    camp = Campaign(cmap, loaded, seed, doctrines)
    camp.start()
    camp.run_until(minute)
    return camp.state()


def run_to_end(
    cmap: CampaignMap, loaded: LoadedRules, seed: int, doctrines: dict[str, str] | None = None
) -> CampaignResult:
    """The whole campaign, never stopped (:func:`campaign.engine.run_campaign`)."""
    return Campaign(cmap, loaded, seed, doctrines).run()


class CampaignInputs(Protocol):
    """What a campaign is built from besides its map and rules: its seed, doctrines
    (side -> name) and tabletop results (:class:`campaign.state.Inputs`, a save's
    :class:`campaign.save.format.SaveInputs`)."""

    @property
    def seed(self) -> int: ...
    @property
    def doctrines(self) -> dict[str, str]: ...
    @property
    def table_results(self) -> tuple[TableResult, ...]: ...


def new_campaign(
    inputs: CampaignInputs,
    cmap: CampaignMap,
    loaded: LoadedRules,
    *,
    start: bool = True,
    **recording: Unpack[Recording],
) -> Campaign:
    """The campaign of ``inputs`` on ``cmap`` under ``loaded``, started (nothing run yet) unless
    ``start`` is False; ``record_events`` and ``battle_logs`` as for :class:`Campaign`
    (:class:`campaign.engine.Recording`)."""
    camp = Campaign(
        cmap,
        loaded,
        inputs.seed,
        dict(inputs.doctrines),
        table_results=inputs.table_results,
        **recording,
    )
    if start:
        camp.start()
    return camp


def resume(
    state: CampaignState, cmap: CampaignMap, loaded: LoadedRules, **recording: Unpack[Recording]
) -> Campaign:
    """The campaign of ``state``, at ``state.time``, ready to run on (:meth:`Campaign.run_until`,
    :meth:`Campaign.finish`); its events so far are those of the campaign that was stopped.
    ``record_events`` and ``battle_logs`` as for :class:`Campaign` (:class:`campaign.engine.
    Recording`).

    Raises
    ------
    StateMismatch
        If ``cmap`` or ``loaded`` are not the map and rules ``state`` was taken with
        (``inputs``), or the campaign rebuilt does not reach exactly ``state`` (the message
        names the first field that differs).
    """
    inputs = state.inputs
    camp = new_campaign(inputs, cmap, loaded, start=False, **recording)
    mine = inputs_of(camp)
    for name in ("map", "rules", "rules_hash"):
        if getattr(mine, name) != getattr(inputs, name):
            raise StateMismatch(
                f"the state was taken with {name} {getattr(inputs, name)!r}, not "
                f"{getattr(mine, name)!r}",
                key=f"inputs.{name}",
                fix="Resume it with the map and rules (and variants) it was saved with.",
            )
    camp.start()
    if state.over:
        camp.run_to_end()
    elif state.time > 0:
        camp.run_until(state.time)
    reached = camp.state()
    if reached != state:
        raise StateMismatch(
            f"the campaign rebuilt from its inputs is not in the saved state at minute "
            f"{state.time:g}: {first_difference(reached, state)} differs",
            key=first_difference(reached, state),
            fix="Resume it with the version of the program that saved it, or start it again.",
        )
    return camp


def first_difference(a: CampaignState, b: CampaignState) -> str:
    """The first top-level field (a division's id for a division) where ``a`` and ``b``
    differ."""
    for name in CampaignState.__dataclass_fields__:
        if getattr(a, name) != getattr(b, name):
            if name == "divisions":
                for da, db in zip(a.divisions, b.divisions, strict=False):
                    if da != db:
                        return f"divisions[{da.id}]"
            return name
    return "nothing"
