"""RULES.md §8.4: a battle at a junction is fought with every division of either side there
when it starts, a draw's attacker waiting there to go back whence it came (§8.5) included.

Found by the campaign referee (crusader_rex seed 27, balanced:raider): R1 drew at Tyre at
11:00 of day 2 and, too late to march back to Beaufort by nightfall (§8.3), waited there for
dawn; R3 reached Tyre at 19:00 and fought B1 there without R1, which stood there.

The draw's rule alone starts no battle: the attacker waiting to go back and the defender it
drew with are not met again (nothing else has come); that stays so.
"""

from __future__ import annotations

from campaign.army import Division
from campaign.config import load_rules
from campaign.engine import Campaign
from campaign.maps import load_map


def _stage(
    returning: bool, friend_arrives: bool
) -> tuple[Campaign, str, Division, Division, Division]:
    """The default map at 06:00 of day 1, before anyone moves: red's first division stands
    at a quiet junction (``returning``: waiting to go back after a draw, as
    :meth:`campaign.fallback.Aftermath.after_junction_battle` leaves it), blue's first stands
    there too, and (``friend_arrives``) red's second reaches it now. Returns the campaign,
    the junction and the three divisions after the junction's contact check (§8.4)."""
    camp = Campaign(load_map(None), load_rules(), 1, None)
    camp.start()
    red = [d for d in camp.divisions if d.side == "red"]
    blue = [d for d in camp.divisions if d.side == "blue"]
    waiting, friend, enemy = red[0], red[1], blue[0]
    taken = {d.location for d in camp.divisions}
    junction = min(j for j in camp.graph.nodes if j not in taken and camp.graph.degree(j) >= 2)
    came_from = min(camp.graph.neighbors(junction))
    for d in (waiting, enemy):
        d.location, d.arrived_at = junction, 0.0
    waiting.came_from = came_from
    if returning:
        waiting.orders = [("wait_until", 600.0), ("return", came_from)]
    if friend_arrives:
        friend.location, friend.arrived_at = junction, 0.0
    camp.desk.check_contact(junction, arriving=friend if friend_arrives else None)
    return camp, junction, waiting, friend, enemy


def test_a_draws_waiting_attacker_fights_when_a_friend_brings_battle() -> None:
    camp, junction, waiting, friend, enemy = _stage(returning=True, friend_arrives=True)
    battle = camp.desk.fighting.get(junction)
    assert battle is not None, "the friend's arrival brings a battle at the junction"
    fought = {d.id for d in battle.divisions}
    assert {waiting.id, friend.id, enemy.id} <= fought, fought
    assert waiting.orders == [], "the battle decides: its return is given up (§8.4)"


def test_a_draws_waiting_attacker_alone_is_not_met_again() -> None:
    camp, junction, waiting, _friend, _enemy = _stage(returning=True, friend_arrives=False)
    assert junction not in camp.desk.fighting
    assert waiting.orders and waiting.orders[0][0] == "wait_until"


def test_a_division_standing_there_is_met() -> None:
    """The control case: not waiting to go back, the same two fight (§8.4)."""
    camp, junction, waiting, _friend, enemy = _stage(returning=False, friend_arrives=False)
    battle = camp.desk.fighting.get(junction)
    assert battle is not None and {waiting.id, enemy.id} <= {d.id for d in battle.divisions}
