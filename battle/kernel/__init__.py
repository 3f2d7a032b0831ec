"""The compiled battle kernel (RULES.md §3–§7): the battle as arrays, the rules as small
numba-compiled functions over them. :func:`battle.engine.fight` is its public entry."""
