"""How a map names its sides: name, adjective, colour, commanders and division names.

A map in the project's format may give each side, beside its ``name``, an ``adjective``
(``French``, ``Allied``), a ``colour`` (any colour matplotlib reads: ``"#1f4e9c"``, ``navy``),
a ``rank`` and a list of ``commanders`` (surnames drawn per campaign, see
:class:`campaign.printers.commanders.Commanders`) and the names of its starting ``divisions``
in start order (``"III Corps"`` or ``{name: "III Corps", commander: Vandamme}``); each
reinforcement may name its divisions' ``commanders`` (RULES.md §8.9). A map drawn by someone
else (``/work/shared/maps/``) is never edited: its names come from an *overlay*,
``maps/names/<the map's file stem>.yaml``, with the same keys under ``sides:``. None of these
names changes a rule: they are the diary's words only (house: flavour). A side's ``home``
(junction ids) is the one key that places anything: where an automatic set-up may put its
base when the map gives none (:mod:`campaign.maps.sides`, RULES.md §8.7).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, ValidationError

from battle.errors import plain_message
from campaign.errors import MapError
from campaign.maps.strict import StrictModel
from campaign.paths import MAPS_DIR

__all__ = [
    "NAMES_DIR",
    "DivisionName",
    "MapNaming",
    "SideNaming",
    "overlay_path",
    "read_overlay",
]

#: Where the names of maps that are not the project's own live (one file a map, by stem).
NAMES_DIR = MAPS_DIR / "names"

#: At most this many names in a list (a typo'd anchor must not make a huge diary table).
MAX_NAMES = 200


def _colour(value: Any) -> Any:
    """A colour matplotlib can draw (``#rrggbb``, ``#rgb``, a CSS name such as ``navy``)."""
    from matplotlib.colors import is_color_like

    if not isinstance(value, str) or not is_color_like(value):
        raise ValueError(
            f"{value!r} is not a colour: give #rrggbb (e.g. '#1f4e9c') or a colour name "
            "such as navy or firebrick"
        )
    return value


def _text(value: Any) -> Any:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("expected a non-empty text")
    return value.strip()


Text = Annotated[str, BeforeValidator(_text)]
Colour = Annotated[str, BeforeValidator(_colour)]


class _DivisionName(StrictModel):
    name: Text
    commander: Text | None = None
    rank: str | None = None  # over the side's rank; "" for a title that stands alone


def _division_entry(value: Any) -> Any:
    return {"name": value} if isinstance(value, str) else value


DivisionEntry = Annotated[_DivisionName, BeforeValidator(_division_entry)]


class SideNamesModel(StrictModel):
    """The naming keys of one side (in a map's ``sides.<side>`` or an overlay's)."""

    name: Text | None = None
    adjective: Text | None = None
    colour: Colour | None = None
    rank: str | None = None
    commanders: list[Text] = Field(default_factory=list, max_length=MAX_NAMES)
    divisions: list[DivisionEntry] = Field(default_factory=list, max_length=MAX_NAMES)
    # junction ids where an automatic set-up may put this side's base (RULES.md §8.7): its
    # home country, so that the French of 1755 are not based at Philadelphia
    home: list[Text] = Field(default_factory=list, max_length=MAX_NAMES)


class _OverlaySides(StrictModel):
    red: SideNamesModel = Field(default_factory=SideNamesModel)
    blue: SideNamesModel = Field(default_factory=SideNamesModel)


class _Overlay(StrictModel):
    map: Text | None = None  # the file it names, for the reader (checked against the stem)
    note: str | None = None
    sides: _OverlaySides


@dataclass(frozen=True)
class DivisionName:
    """A named division: its name, its commander's surname (or None: drawn) and a rank over
    the side's (None: the side's; ``""``: the commander's name stands alone)."""

    name: str
    commander: str | None = None
    rank: str | None = None


@dataclass(frozen=True)
class SideNaming:
    """What a map says of one side's names (every field optional).

    ``commanders`` are surnames drawn per campaign for divisions the map does not name;
    ``divisions`` name the starting divisions in start order (``R1``, ``R2``, ...);
    ``home`` the junction ids where an automatic set-up may put the side's base
    (:func:`campaign.maps.sides.resolve_sides`; the only one of these that places anything).
    """

    name: str | None = None
    adjective: str | None = None
    colour: str | None = None
    rank: str | None = None
    commanders: tuple[str, ...] = ()
    divisions: tuple[DivisionName, ...] = ()
    home: tuple[str, ...] = ()

    @classmethod
    def from_model(cls, m: SideNamesModel) -> SideNaming:
        """The naming of a validated ``sides.<side>`` block."""
        return cls(
            m.name,
            m.adjective,
            m.colour,
            m.rank,
            tuple(m.commanders),
            tuple(DivisionName(d.name, d.commander, d.rank) for d in m.divisions),
            tuple(m.home),
        )

    def over(self, other: SideNaming) -> SideNaming:
        """This naming with ``other``'s values where this one gives none."""
        return SideNaming(
            self.name or other.name,
            self.adjective or other.adjective,
            self.colour or other.colour,
            self.rank if self.rank is not None else other.rank,
            self.commanders or other.commanders,
            self.divisions or other.divisions,
            self.home or other.home,
        )

    @property
    def names_commanders(self) -> bool:
        """Whether the map gives this side any commander (a list or a division's)."""
        return bool(self.commanders) or any(d.commander for d in self.divisions)


@dataclass(frozen=True)
class MapNaming:
    """A map's names: per side (:class:`SideNaming`) and reinforcements' commanders.

    ``reinforcements`` maps ``(side, division display name)`` to the commander's surname;
    ``origin`` says where the names came from (the map file, an overlay's path, or ``""``).
    """

    sides: dict[str, SideNaming] = field(default_factory=dict)
    reinforcements: dict[tuple[str, str], str] = field(default_factory=dict)
    origin: str = ""

    def side(self, side: str) -> SideNaming:
        """The naming of ``side`` (an empty one if the map gives none)."""
        return self.sides.get(side) or SideNaming()

    def reinforcement_commander(self, side: str, name: str) -> str | None:
        """The commander the map gives a reinforcement division called ``name``, or None."""
        return self.reinforcements.get((side, name))


def overlay_path(map_source: str | Path) -> Path:
    """``maps/names/<stem>.yaml``: where the names of the map read from ``map_source`` are."""
    return NAMES_DIR / f"{Path(map_source).stem}.yaml"


def _problems(exc: ValidationError) -> str:
    lines = []
    for err in exc.errors():
        path = ".".join(str(p) for p in err["loc"]) or "(top level)"
        if err["type"] == "extra_forbidden":
            lines.append(f"{path}: unknown key (a typo?)")
        else:
            lines.append(f"{path}: {plain_message(err, found=True)}")
    return "; ".join(lines)


def read_overlay(path: Path) -> MapNaming:
    """Read a names overlay (``maps/names/<stem>.yaml``).

    Returns
    -------
    MapNaming
        Its sides and reinforcements' commanders, ``origin`` the overlay's path.

    Raises
    ------
    MapError
        If the file is not YAML or a key is unknown or of the wrong type (the message names
        the key path: ``sides.red.colour: 'blu' is not a colour ...``).
    """
    import yaml

    from campaign.paths import display_path

    source = display_path(path)
    fix = "See maps/names/README.md for the names overlay's keys."
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise MapError(
            f"cannot read the names overlay ({exc.__class__.__name__})", source=source, fix=fix
        ) from None
    try:
        doc = _Overlay.model_validate(data)
    except ValidationError as exc:
        raise MapError(_problems(exc), source=source, fix=fix) from None
    sides = {s: SideNaming.from_model(getattr(doc.sides, s)) for s in ("red", "blue")}
    return MapNaming(sides, {}, source)
