"""Strategy doctrines (RULES.md §8.8): where each division marches next, and why.

- :mod:`campaign.strategy.knowledge`: what a side knows (RULES.md §8.6).
- :mod:`campaign.strategy.routing`: routes by expected march hours, rough roads priced in.
- :mod:`campaign.strategy.doctrine`: the decisions, kept and settled; on
  :mod:`campaign.strategy.choosing`: choosing one (guard, regroup, pursue, attack,
  concentrate, plan, flank, objectives, advance), on :mod:`campaign.strategy.mind`: what the
  side remembers and learns.
- :mod:`campaign.strategy.plan`: the army-level plan (aim, rendezvous, kept orders) and
  :mod:`campaign.strategy.triggers`: the named reasons to re-plan.
- :mod:`campaign.strategy.gather`, :mod:`campaign.strategy.targets`: where a division
  joins others and which enemy it goes for; :mod:`campaign.strategy.checks`: doctrine names.
"""

from campaign.strategy.doctrine import CODES, Order, Strategist, check_doctrines
from campaign.strategy.knowledge import (
    BattleSeen,
    EnemyGroup,
    OwnDivision,
    SideView,
    count_flank_marches,
)
from campaign.strategy.routing import PricedRoutes, rough_road_cost

__all__ = [
    "CODES",
    "BattleSeen",
    "EnemyGroup",
    "Order",
    "OwnDivision",
    "PricedRoutes",
    "SideView",
    "Strategist",
    "check_doctrines",
    "count_flank_marches",
    "rough_road_cost",
]
