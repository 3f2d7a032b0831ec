"""Diary sentences for what the rules did to a division (issue 31, item 3: a log that tells
the truth): a return after a draw (RULES.md §8.4, §8.5), a road battle's winner marching on
(§8.4), a fall back caught on its way (§8.4, §8.5), a division destroyed (§1.2) or
surrendered (§8.5), with where and by whom.

:class:`Fates` is a part of :class:`campaign.printers.narrative.Narrator` (its handlers are
named in ``Narrator.HANDLERS``); it also keeps what the narrator must know to call a division
"beaten" only when its last battle was lost, and to say that a battle caught a fall back.
"""

from __future__ import annotations

from collections.abc import Iterable

from campaign.events import (
    BattleFought,
    DivisionDestroyed,
    FallBackCaught,
    FellBack,
    MarchResumed,
    Place,
    ReturnBegun,
    Surrendered,
)

__all__ = ["Fates", "Line"]

#: a plain event row's sentence and its style (rich markup: "" plain, "magenta", "bold red")
Line = tuple[str, str]


class Fates:
    """Handlers and the record they keep (mixed into the narrator, which gives ``j``,
    ``div`` and ``divs``). Each handler gives its event's :data:`Line`."""

    #: division -> whether the last battle it fought was lost (RULES.md §8.5: "beaten")
    lost_last: dict[str, bool]
    #: (minute, junction) -> divisions caught there in mid fall back at that minute
    caught: dict[tuple[int, str], list[str]]
    #: ``umpire``, ``red`` or ``blue``: whose diary
    view: str

    def j(self, junction: Place) -> str:
        raise NotImplementedError

    def div(self, division: str) -> str:
        raise NotImplementedError

    def divs(self, divisions: Iterable[str]) -> str:
        raise NotImplementedError

    # ------------------------------------------------------------------ what is known
    def beaten(self, division: str) -> bool:
        """Whether ``division`` lost the last battle it fought (a draw or a win since, or no
        battle at all, and it is not beaten)."""
        return self.lost_last.get(division, False)

    def remember_battle(self, e: BattleFought) -> None:
        """After a battle's sentence: who of its divisions lost it."""
        for side, ids in e.divisions.items():
            for d in ids:
                self.lost_last[d] = e.winner is not None and e.winner != side

    def caught_all(self, e: BattleFought, defenders: list[str]) -> bool:
        """Whether the battle ``e`` caught every one of ``defenders`` (those there when it
        began) in mid fall back (each told just before it): the pursuer attacks."""
        caught = [] if e.road else self.caught.get((e.t, e.place), [])
        return bool(defenders) and all(d in caught for d in defenders)

    # ------------------------------------------------------------------ handlers
    def _fell_back(self, e: FellBack) -> Line:
        """Where a beaten division falls back to (RULES.md §8.5), said as a march toward its
        last junction: one caught on its way is told where (:meth:`_caught`)."""
        path = [self.j(j) for j in e.path]
        seen_all = self.view in ("umpire", e.side)
        if not path:
            route = "where it stands"
        elif e.from_road:  # beaten on a road: back to the junction it had left first (§8.4)
            route = f"along the road toward {path[0]}"
            if len(path) >= 2:
                via = f"through {', '.join(path[1:-1])} " if len(path) >= 3 else ""
                route += f", then {via}toward {path[-1]}"
        elif len(path) >= 2:
            via = f" through {', '.join(path[1:-1])}" if len(path) >= 3 else ""
            route = f"from {path[0]}{via} toward {path[-1]}"
        else:
            route = f"toward {path[0]}" if seen_all else f"from {path[0]}"
        if len(path) == 1 and not seen_all:
            route += ", out of sight"
        onto = ", its base" if e.onto_base else ""
        return f"{self.div(e.division)} falls back {route}{onto}", "magenta"

    def _caught(self, e: FallBackCaught) -> Line:
        self.caught.setdefault((e.t, e.junction), []).append(e.division)
        by = f" by {self.divs(e.by)}" if e.by else ""
        return (
            f"{self.div(e.division)}, falling back toward {self.j(e.toward)}, is caught at "
            f"{self.j(e.junction)}{by}",
            "magenta",
        )

    def _return(self, e: ReturnBegun) -> Line:
        if isinstance(e.origin, str):
            text = (
                f"{self.div(e.division)} goes back to {self.j(e.destination)} after the drawn "
                f"battle at {self.j(e.origin)}"
            )
        else:
            text = (
                f"{self.div(e.division)} turns back along {self.j(e.origin)} to "
                f"{self.j(e.destination)} after the drawn fight there"
            )
        return text, ""

    def _resumed(self, e: MarchResumed) -> Line:
        text = (
            f"{self.div(e.division)}, the victor on {self.j(e.road)}, marches on to "
            f"{self.j(e.destination)}"
        )
        return text, ""

    def _destroyed(self, e: DivisionDestroyed) -> Line:
        by = f" by {self.divs(e.by)}" if e.by else ""
        return (
            f"{self.div(e.division)} is destroyed at {self.j(e.place)}{by}: its last unit is gone",
            "bold red",
        )

    def _surrendered(self, e: Surrendered) -> Line:
        to = f" to {self.divs(e.by)}" if e.by else ""
        return (
            f"{self.div(e.division)} is cut off at {self.j(e.junction)} and surrenders{to}",
            "bold red",
        )
