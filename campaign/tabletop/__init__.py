"""Battles fought on the table (issue 28): the briefing to set one up
(:mod:`campaign.tabletop.briefing`) and the result sheet, its checks and the quick form
(:mod:`campaign.tabletop.sheet`)."""
