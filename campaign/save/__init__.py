"""Saves of a campaign: event-sourced, readable, checked (issue 28, item 3).

:mod:`campaign.save.format` (the file), :mod:`campaign.save.replay` (write one from a running
campaign, build a campaign again from one), :mod:`campaign.save.fork` (other rules, doctrines
or dice from a minute on), :mod:`campaign.save.when` (``"day 2 18:00"``, ``battle:3``).
"""
