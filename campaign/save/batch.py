"""What-if batches from a save (issue 28, item 3): ``campaign batch run SPEC --from SAVE``.

Every cell starts from the same past — the save's campaign, replayed to its stop point —
and plays its future under the cell's rules and doctrines: a fork at the stop point
(:mod:`campaign.save.fork`) whose rules are the save's own with the cell's variants added
and its ``set`` keys over them, and whose dice are those of the run's seed
(:func:`campaign.batch.worker.run_seed`): run ``i`` of every cell draws the same dice after
the stop point (common random numbers), so two cells differ by their rules alone.

A spec that names no doctrines keeps the save's; a spec's maps must be the save's map (or
left out).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from campaign.save.format import Fork, Save, loads

if TYPE_CHECKING:
    from campaign.batch.spec import BatchSpec, Cell
    from campaign.config import LoadedRules
    from campaign.maps import CampaignMap
    from campaign.result import CampaignResult

__all__ = [
    "SaveStart",
    "cell_from_save",
    "design_of",
    "play_future",
    "spec_from_save",
    "start_of",
]


@dataclass(frozen=True)
class SaveStart:
    """A batch's starting point: the save's text (sent to the workers), its SHA-256 (in the
    batch's design hash: another save is another batch) and the save itself."""

    text: str
    sha: str
    save: Save


def start_of(text: str, source: str) -> SaveStart:
    """The :class:`SaveStart` of a save's text, checked by replaying it
    (:func:`campaign.save.replay.replay`; a bad save raises ``SaveError``)."""
    from campaign.save.replay import replay

    save = loads(text, source)
    replay(save, source, record_events=False)
    return SaveStart(text, hashlib.sha256(text.encode()).hexdigest()[:16], save)


def _current(save: Save) -> tuple[tuple[str, ...], dict[str, Any], dict[str, str]]:
    """The rules (variants, overrides) and doctrines the save's campaign plays at its stop."""
    last = save.inputs.forks[-1] if save.inputs.forks else None
    rules = last.rules if last else save.inputs.rules
    doctrines = last.doctrines if last else save.inputs.doctrines
    return rules.variants, dict(rules.overrides), dict(doctrines)


def spec_from_save(spec: BatchSpec, start: SaveStart, source: str) -> BatchSpec:
    """``spec`` on the save's map, with the save's doctrines when it names none.

    Raises
    ------
    BatchSpecError
        If the spec names a map other than the save's.
    """
    from campaign.errors import BatchSpecError
    from campaign.maps.loader import resolve_map_path

    mine = resolve_map_path(start.save.inputs.map.source).resolve()
    if "maps" in spec.model_fields_set:
        other = [m for m in spec.maps if resolve_map_path(m).resolve() != mine]
        if other:
            raise BatchSpecError(
                f"a batch from a save plays the save's map ({start.save.inputs.map.source}), "
                f"not {other[0]}",
                source=source,
                key="maps",
                fix="Leave maps out of the spec (and --map off) for a batch --from a save.",
            )
    update: dict[str, Any] = {"maps": [start.save.inputs.map.source]}
    if "doctrines" not in spec.model_fields_set:
        _, _, doctrines = _current(start.save)
        update["doctrines"] = [f"{doctrines['red']}:{doctrines['blue']}"]
    return spec.model_copy(update=update)


def cell_from_save(cell: Cell, start: SaveStart) -> Cell:
    """``cell`` with the save's rules under it: the save's variants then the cell's, the
    save's overrides with the cell's over them."""
    variants, overrides, _ = _current(start.save)
    merged = {**overrides, **dict(cell.overrides)}
    return replace(
        cell,
        variants=(*variants, *(v for v in cell.variants if v != "default")),
        overrides=tuple(sorted(merged.items())),
    )


@lru_cache(maxsize=4)
def _save_of(text: str) -> tuple[Save, CampaignMap, LoadedRules]:
    from campaign.save.replay import load_inputs

    save = loads(text, "the batch's save")
    cmap, loaded = load_inputs(save.inputs)
    _ = cmap.routes
    return save, cmap, loaded


def play_future(
    text: str, loaded: LoadedRules, doctrines: dict[str, str], seed: int
) -> CampaignResult:
    """One future of the save ``text``: its past replayed (events off), then a fork at its
    stop point to ``loaded`` and ``doctrines`` with the dice of ``seed``, played to the end."""
    from campaign.save.fork import apply_fork
    from campaign.save.replay import build, rules_input, run_to

    save, cmap, base = _save_of(text)
    camp = build(save.inputs, cmap, base, record_events=False)
    run_to(camp, save.stop, save.inputs.forks)
    fork = Fork(camp.env.now, save.at, rules_input(loaded), dict(doctrines), seed)
    if not camp.over:
        apply_fork(camp, fork, loaded)
    return camp.finish()


def design_of(start: SaveStart | None) -> dict[str, Any]:
    """What a batch's design hash adds for its start (nothing without one)."""
    return {} if start is None else {"from_save": start.sha}
