"""What-if analysis beyond a grid of runs (issue 14).

``odds``         exact probabilities of every dice mechanic of RULES.md, by enumeration
``card``         the printable reference card (HTML) of those odds
``precision``    anytime-valid confidence sequences and batches that stop at a precision
``tournament``   doctrine tournaments: every ordered pair on every map, Bradley–Terry ratings
``sensitivity``  global sensitivity of campaign outcomes to rule parameters (SALib)

Each builds on the public entry points (``load_rules``, the batch spec/plan/run machinery,
``battle.dice``) so that changes to the engine's internals do not reach it.
"""
