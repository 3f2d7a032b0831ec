"""Numbers with a stated range: one definition of each key's smallest and largest value.

Every number of the rules, map and batch schemas is declared ``Annotated[int, Range(lo,
hi)]`` (or ``float``), so its range lives in the schema itself (one place, also in the JSON
schema as ``minimum``/``maximum``) and a value outside it is refused with both ends named:
``battle.reaction_die: expected 2..100 (found 9223372036854775808)``. NaN and infinity are
refused everywhere (no rule can use them); true/false are refused by
:func:`battle.configload.validate`.

Bounds that RULES.md states (percentages 0..100, a d100) are the rule's own; the rest are
*(house)* bounds, chosen wide enough for any variant a wargamer would play and narrow enough
that no product of them overflows the kernel's 64-bit arithmetic (``battle/kernel/pack.py``)
or makes the exact-odds enumeration (``campaign/analysis/odds.py``) run away.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field, GetCoreSchemaHandler, ValidationError
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

__all__ = ["RANGE_ERROR", "Range"]

#: The pydantic error type of a value outside its range (``expected LO..HI``).
RANGE_ERROR = "out_of_range"

_RANGE_TYPES = {"greater_than_equal", "less_than_equal", "greater_than", "less_than"}


def _show(x: float) -> str:
    return f"{int(x)}" if float(x).is_integer() else f"{x:g}"


@dataclass(frozen=True)
class Range:
    """Pydantic metadata: a number from ``lo`` to ``hi`` inclusive (above ``lo`` when
    ``open_low``), finite; a value outside gets the error ``expected LO..HI``.

    >>> from pydantic import TypeAdapter
    >>> TypeAdapter(Annotated[int, Range(2, 100)]).validate_python(6)
    6
    """

    lo: float
    hi: float
    open_low: bool = False

    @property
    def expected(self) -> str:
        """The range as the error says it: ``expected 2..100`` or ``expected more than 0 up
        to 1``."""
        if self.open_low:
            return f"expected more than {_show(self.lo)} up to {_show(self.hi)}"
        return f"expected {_show(self.lo)}..{_show(self.hi)}"

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        low = Field(gt=self.lo) if self.open_low else Field(ge=self.lo)
        inner = handler.generate_schema(
            Annotated[source, low, Field(le=self.hi, allow_inf_nan=False)]
        )
        text = self.expected

        def wrap(value: Any, next_: core_schema.ValidatorFunctionWrapHandler) -> Any:
            if isinstance(value, float) and not math.isfinite(value):
                raise PydanticCustomError(RANGE_ERROR, text + " (a finite number)")
            try:
                return next_(value)
            except ValidationError as exc:  # reword its range errors only
                if all(e["type"] in _RANGE_TYPES for e in exc.errors()):
                    raise PydanticCustomError(RANGE_ERROR, text) from None
                raise

        return core_schema.no_info_wrap_validator_function(wrap, inner)
