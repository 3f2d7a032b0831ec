"""Battles fought on the table (issue 28): the briefing to set one up
(:mod:`campaign.tabletop.briefing`), the result sheet, its checks and the quick form
(:mod:`campaign.tabletop.sheet`), which battles a campaign stops for
(:mod:`campaign.tabletop.policy`) and the stop itself (:mod:`campaign.tabletop.stop`); the
result is applied in the campaign by :mod:`campaign.table_battle`."""
