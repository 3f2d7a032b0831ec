"""The reference battle engine: RULES.md §3–§7 in plain Python, the rules' definition.

:func:`battle.reference.engine.fight` fights a battle with the same arguments and results as
the compiled kernel (:mod:`battle.kernel`), event for event; the kernel is a fast copy proven
equal to it (tests/battle/test_engines_equal.py). It needs nothing but numpy.
"""
