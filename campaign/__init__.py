"""The campaign simulator: maps, the campaign loop, batches, diaries (RULES.md §8).

Importing the package first lets :mod:`campaign.native` put the compiled campaign modules
in place of their plain sources when an up-to-date build is there (issue 15).
"""

from campaign.native import activate as _activate

_activate()
