"""The battle kernel's data layout: column numbers of its arrays and its integer codes.

Each family of columns or codes is declared once, as a list of names in order: its numbers
are made from that order (``(U_SIDE, U_KIND, ...) = range(37)``, which fails at import unless
the count is right), and its width from its last name (``NU = U_HALFP + 1``). The battle's
scalars ``S_*``, some several wide (a value per side, the tallies), are numbered from
:data:`SCALARS`, their names with their widths, and the event rows from :data:`EVENT_ROWS`,
each kind's values' names with their widths; tests/battle/test_kernel_layout.py checks that
they do not overlap, and that the names a decoder prints (``TEST_KINDS``, ``HOWS``, ...)
match their codes (tests/battle/test_kernel_event_rows.py, that the kernel writes and the
decoder reads every event value by its name).

The kernel (:mod:`battle.kernel.core`, :mod:`battle.kernel.phases`,
:mod:`battle.kernel.orders`, :mod:`battle.kernel.bound`) keeps one battle as a handful of
numpy arrays so that numba can compile the rules; these constants name their columns.
Module-level ints are compile-time constants to numba.

Arrays of one battle (the ``st`` tuple, see :func:`battle.kernel.bound.set_out`):

``U``  int64 [units, NU]: per unit, the columns ``U_*`` below (flags are 0/1; unit
       references are unit indices, -1 for none). Units are indexed in id order over both
       sides (RULES.md §6.9 ties go to the lowest id).
``P``  float64 [units, NP]: position (inches from its own baseline) and where its charge began.
``S``  int64 [NS]: the battle's scalars ``S_*``.
``DK`` int64 [2, cards]: each side's deck, highest card first (RULES.md §3); ``DL`` the cards
       dealt since the last reshuffle (draw-through).
``DB`` float64 [n]: the battle's uniforms, drawn from its generator (battle.kernel.draw).
``E``  float64 [rows, EW]: the event buffer, one row per event, laid out by
       :data:`EVENT_ROWS` (its kind ``EV_*``, turn, bound, then the kind's values by name),
       written by :mod:`battle.kernel.rows` and read by :mod:`battle.kernel.decode`.
``OA``  int64 [units, NO]: this bound's orders; ``OG`` float64 [units]: their stop gaps.
``WK`` int64 [WK_ROWS, units], ``WB`` bool [2, units], ``CH`` int64 [units, 5] and ``CG``
       float64 [units]: working space of one step (choosing a bound's orders, the melee
       phase, the half-strength checks), laid out once per battle: a step that made its own
       arrays on each call spent more on making and counting them than on its rules.
"""

from __future__ import annotations

from battle import events

#: rows of WK: the enemy units that may be charged and its cavalry (orders), the pairs in
#: melee (melee phase), the units due a half-strength test
WK_TARGETS, WK_CAV, WK_PAIR_A, WK_PAIR_B = 0, 1, 2, 3
WK_DUE = 2
WK_ROWS = 4

# ---------------------------------------------------------------- U: unit integer columns
(
    U_SIDE,
    U_KIND,  # unit type index (rules' battle.units order)
    U_FID,  # formation index (global over (type, formation) pairs)
    U_HITS,  # actual hits taken in this battle
    U_TOTAL,  # hits carried in + this battle's
    U_HB,  # hits carried in
    U_MORALE,
    U_GRADE,  # 0 raw, 1 regular, 2 veteran, 3 elite
    U_IRREG,
    U_SHAKEN,
    U_DISORD,
    U_FAILED,  # failed its last formation-change completion test (RULES.md §5.3)
    U_FROZEN,
    U_ROUTED,
    U_DESTR,
    U_OFFT,
    U_OUT,  # routed, destroyed or off the table
    U_PRESENT,  # in the battle (a late arrival is 0 until it joins, RULES.md §8.4)
    U_MELEE,
    U_CBY,  # the enemy charging it
    U_CING,  # the enemy it charged, until that one tests to stand
    U_SVS,  # the charger it stood against this bound (defensive fire)
    U_SBY,  # the unit that stood against its charge
    U_CBONUS,
    U_CCOST,  # its formation change's own §5.2 total
    U_CTF,  # target of an enemy charge since its last bound
    U_HBF,  # hit by fire since its last bound
    U_RETSH,  # retired while shaken (counted once, RULES.md §7.2)
    U_ACT,  # activated this bound
    U_CDECL,  # declared a charge this bound
    U_ADV,  # ordered to advance this bound (move-and-fire)
    U_HALFMV,  # fired while advancing: moves half (RULES.md §6.10)
    U_NOCH,  # variant no-charge-after-fail
    U_HALFT,  # took (or is past) its half-strength test
    U_ARR,  # index of the arrival that brings it, -1 for a unit there from the start
    U_CHGL,  # charged by the enemy: tests to stand at its side's next bound
    U_HALFP,  # due a half-strength test
) = range(37)
NU = U_HALFP + 1
#: the columns of U a battle's result reads (battle.kernel.decode), in this order; then its
#: state at the end (an index of END_STATES)
OUT_COLUMNS = (U_PRESENT, U_FID, U_HITS, U_TOTAL, U_RETSH)
#: a unit's state at the end of a battle: that of the first of END_FLAGS it has set, else steady
END_FLAGS = (U_DESTR, U_ROUTED, U_OFFT, U_SHAKEN, U_DISORD)
END_STATES = ("destroyed", "routed", "off-table", "shaken", "disordered", "steady")

# ---------------------------------------------------------------- P: unit float columns
P_POS = 0
P_CFROM = 1
NP = 2

# ---------------------------------------------------------------- S: battle scalars
#: the battle's scalars, in order, with how many slots each takes (a value per side: 2):
#: their numbers ``S_*`` below are made from this list (checked at import), never by hand
SCALARS: tuple[tuple[str, int], ...] = (
    ("S_TURN", 1),
    ("S_BOUNDS", 1),
    ("S_OVER", 1),
    ("S_WINNER", 1),  # -1: a draw / not decided
    ("S_REASON", 1),
    ("S_CHANGED", 1),
    ("S_ATTACKER", 1),
    ("S_RECORD", 1),
    ("S_CL", 2),  # cards lost, + side
    ("S_LOST", 2),  # §7.1 casualties in boxes, + side
    ("S_BOX", 2),  # §7.1 boxes, + side
    ("S_ONF", 2),  # units on the field, + side
    ("S_DN", 2),  # deck size, + side
    ("S_DEALT", 2),  # cards dealt since the last reshuffle, + side
    ("S_DI", 1),  # next uniform to read
    ("S_DNUM", 1),  # uniforms in DB (drawn so far)
    ("S_DUSED", 1),  # uniforms asked for (may pass S_DNUM: the battle is then fought again)
    ("S_EN", 1),  # event rows written
    ("S_EOVER", 1),  # 1 when the event buffer overflowed (the battle is then fought again)
    ("S_FCT", 1),  # turn of the first withdrawal check, -1 none
    ("S_TAL", 8),  # §7.2 tallies: + 4 * side + T_*
    ("S_NEXTARR", 1),  # next arrival to join
    ("S_NARR", 1),  # arrivals
    ("S_MAXB", 1),  # nightfall after this many bounds, -1 none
    ("S_NWD", 1),  # withdrawal checks recorded
    ("S_BITGEN", 1),  # address of the battle generator's bitgen_t, 0 none (battle.kernel.draw)
    ("S_DUP", 1),  # 1 when two units have the same id (the battle is then refused, not fought)
)


def _starts(widths: tuple[tuple[str, int], ...]) -> list[int]:
    """The first slot of each scalar of ``widths`` laid end to end, then the total."""
    out = [0]
    for _, width in widths:
        out.append(out[-1] + width)
    return out


(
    S_TURN,
    S_BOUNDS,
    S_OVER,
    S_WINNER,
    S_REASON,
    S_CHANGED,
    S_ATTACKER,
    S_RECORD,
    S_CL,
    S_LOST,
    S_BOX,
    S_ONF,
    S_DN,
    S_DEALT,
    S_DI,
    S_DNUM,
    S_DUSED,
    S_EN,
    S_EOVER,
    S_FCT,
    S_TAL,
    S_NEXTARR,
    S_NARR,
    S_MAXB,
    S_NWD,
    S_BITGEN,
    S_DUP,
    NS,
) = _starts(SCALARS)
for _name, _slot in zip(SCALARS, _starts(SCALARS), strict=False):
    if globals()[_name[0]] != _slot:  # the names above in SCALARS' order
        raise ImportError(f"battle.kernel.layout: {_name[0]} is not in SCALARS' place")
del _name, _slot

# a unit's code in a layout's RX (battle.kernel.pack.UnitRows): the rank of its id (string
# order) above ROW_BITS, its row of TB below
ROW_BITS = 32
ROW_MASK = (1 << ROW_BITS) - 1

# tallies (RULES.md §7.2 rows a battle can fire)
(
    T_FLAGS,
    T_BATTERIES,
    T_RETSH,
    T_OFFT,
) = range(4)

# ---------------------------------------------------------------- rule scalars (int)
(
    R_INIT_ROLL,
    R_CUMUL,
    R_SHAKEN_PEN,
    R_DESTROYED,
    R_HALF,
    R_CAS_PER_H,
    R_HITS_PASS,
    R_HITS_FAIL,
    R_LOSE_AT,
    R_DRAW_THROUGH,
    R_REMOVE_RANDOM,
    R_REACTION_DIE,
    R_INIT_DIE,
    R_CHARGE_BONUS,
    R_WEAK_BONUS,
    R_FIRE_AND_CHARGE,
    R_WD_DIE,
    R_WD_SUCCESS,
    R_MAX_TURNS,
    R_FROM_CHECK,
    R_TURNS_CAP,
    R_NO_CHARGE_AFTER_FAIL,
    R_COUNTERCHARGE,
    R_PURSUIT,
    R_PURSUIT_X,
    R_FREE_ATTACK,
    R_FREE_X,
    R_MOVE_FIRE,
    R_MOVE_FIRE_X,
    R_PCT_DIE,
    R_HD_CONST,
    R_FC_HBF,
    R_FC_RAW,
    R_FC_CT,
    R_FC_VET,
    R_W_FLAG,  # §7.2 weights, T_* order
) = range(36)
NRI = R_W_FLAG + T_OFFT + 1  # a §7.2 weight per tally

# ---------------------------------------------------------------- rule scalars (float)
(
    RF_DEPTH,
    RF_DEPLOY,
    RF_FALL_BACK,
    RF_DROP_BACK,
    RF_STOP_SHORT,
    RF_MF_FRACTION,
    RF_WD_THRESHOLD,
) = range(7)
NRF = RF_WD_THRESHOLD + 1

# ---------------------------------------------------------------- formations (int / float)
(
    F_FIRECD,  # 0: cannot fire
    F_MELEECD,
    F_FIREDATX,
    F_MAYCHARGE,
    F_SQUARE,
    F_TYPE,
    F_SKIRM,  # skirmish order (RULES.md §1.7)
) = range(7)
NFI = F_SKIRM + 1
(
    FF_RANGE,
    FF_MOVE,
    FF_REACH,
) = range(3)
NFF = FF_REACH + 1

# ---------------------------------------------------------------- unit types
(
    T_BATTERY,
    T_MOUNTED,
    T_FOOT,
    T_LIGHT,
    T_VSSQ,
    T_CVF,
    T_DEPLOYS,  # formation index, -1 none
    T_SQUARE,  # formation index, -1 none
    T_DEFAULT,  # formation index of its default formation (a battery's limbered)
) = range(9)
NTI = T_DEFAULT + 1

# ---------------------------------------------------------------- doctrines, per side
(
    D_CH_DIS,
    D_CH_SH,
    D_CH_ST,
    D_CAV_SQ,
    D_SQ_VS_CAV,
    D_HOLD,
    D_ADV_DEF,
    D_RALLY,
    D_SHAKEN_RANK,
    D_SQ_SKIRM,  # square_from_skirmish (a drill: the order §1.7 refuses)
) = range(10)
NDI = D_SQ_SKIRM + 1
(
    DF_RATIO,
    DF_FORM_LINE,
    DF_UNLIMBER,
    DF_CAV_STOP,
    DF_STOP_SHORT,
    DF_LEAVE_SKIRM,  # leave_skirmish_within_inches, -1 never
    DF_LIMBER,  # limber_beyond_inches, -1 never
) = range(7)
NDF = DF_LIMBER + 1

# ---------------------------------------------------------------- orders
(
    O_UNIT,
    O_ACTION,
    O_TARGET,
    O_FORM,
) = range(4)
NO = O_FORM + 1
(
    A_RALLY,
    A_CHARGE,
    A_FORM,
    A_ADVANCE,
) = range(4)


# ---------------------------------------------------------------- events
def _values(names: str) -> tuple[tuple[str, int], ...]:
    """``"A B*4"`` -> ``(("A", 1), ("B", 4))``: value names, each one column or ``*`` many."""
    out = []
    for word in names.split():
        name, _, width = word.partition("*")
        out.append((name, int(width or 1)))
    return tuple(out)


#: the event rows (the ``E`` buffer), declared once: each kind's code name, then its values'
#: names in column order from column ``E_VALUES`` (every row holds its kind, turn and bound
#: first), each with how many columns it takes. The kinds' codes ``EV_*`` (from 1: 0 is an
#: unwritten row), every value's column ``E*_*`` below and the buffer's width ``EW`` are
#: made from this table (checked at import, never numbered by hand); the kernel writes each
#: value by its name (:mod:`battle.kernel.rows`) and the decoder reads it by the same name
#: (:mod:`battle.kernel.decode`). tests/battle/test_kernel_event_rows.py checks that neither
#: writes or reads a column by number, nor a column of another kind than the row's.
EVENT_ROWS: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = (
    ("EV_PHASE", _values("EP_SIDE EP_PHASE")),  # side -1: the withdrawal phase
    ("EV_BOUND", _values("EB_SIDE EB_CARD EB_DECK EB_NACT")),  # then EB_NACT rows EV_ACT
    ("EV_ACT", _values("EA_UNIT")),  # an activated unit
    # a TR_* reason; unit -1 and the other side's roll as target: the initiative roll
    ("EV_TEST", _values("ET_KIND ET_UNIT ET_DIE ET_ROLL ET_TARGET ET_PASSED ET_WHY ET_ARG")),
    (
        "EV_HIT",  # a HOW_* way
        _values(
            "EH_HOW EH_ATTACKER EH_TARGET EH_MELEE EH_D EH_BONUS EH_DIVISOR EH_MORALE_HITS"
            " EH_HITS EH_TOTAL"
        ),
    ),
    ("EV_MELEE", _values("EM_A EM_B EM_BY_A EM_BY_B EM_LOSER EM_OUTCOME")),  # loser -1: none
    ("EV_CARD", _values("EC_SIDE EC_CARD EC_LEFT EC_CAUSE EC_UNIT EC_TEST")),  # a CC_* cause
    ("EV_STATE", _values("ES_UNIT ES_STATE ES_WHY ES_ARG")),  # an ST_* state, an SR_* reason
    # an MV_* action; from and to in inches; target -1: none
    ("EV_MOVED", _values("EMV_UNIT EMV_ACTION EMV_FROM EMV_TO EMV_TARGET")),
    ("EV_FORMED", _values("EF_UNIT EF_FROM EF_TO")),  # formation indices
    # each side's four §7.2 tallies (T_* order); then EWD_NROLLS rows EV_ROLL, one per die
    (
        "EV_WD",
        _values("EWD_SIDE EWD_PERCENT EWD_TOTAL EWD_WITHDRAWS EWD_NROLLS EWD_OWN*4 EWD_ENEMY*4"),
    ),
    ("EV_ROLL", _values("ER_ROLL")),  # one withdrawal die
    ("EV_END", _values("EE_WINNER EE_REASON")),  # winner -1: a draw
)
#: the values that are not whole numbers (the decoder reads them from the rows as floats)
EVENT_FLOATS = frozenset({"EWD_PERCENT", "EMV_FROM", "EMV_TO"})
#: every row's first columns, then its kind's values
E_KIND, E_TURN, E_BOUND, E_VALUES = range(4)


def event_columns(kind: str) -> list[int]:
    """The first column of each value of the event rows of ``kind`` (an ``EV_*`` name of
    :data:`EVENT_ROWS`), laid end to end from ``E_VALUES``; ``KeyError`` for another name."""
    return [E_VALUES + at for at in _starts(dict(EVENT_ROWS)[kind])[:-1]]


def _row_width(widths: tuple[tuple[str, int], ...]) -> int:
    return E_VALUES + _starts(widths)[-1]


(
    EV_PHASE,
    EV_BOUND,
    EV_ACT,
    EV_TEST,
    EV_HIT,
    EV_MELEE,
    EV_CARD,
    EV_STATE,
    EV_MOVED,
    EV_FORMED,
    EV_WD,
    EV_ROLL,
    EV_END,
) = range(1, len(EVENT_ROWS) + 1)
#: the columns of the widest row (a withdrawal check's)
EW = max(_row_width(widths) for _, widths in EVENT_ROWS)
EP_SIDE, EP_PHASE = event_columns("EV_PHASE")
EB_SIDE, EB_CARD, EB_DECK, EB_NACT = event_columns("EV_BOUND")
(EA_UNIT,) = event_columns("EV_ACT")
ET_KIND, ET_UNIT, ET_DIE, ET_ROLL, ET_TARGET, ET_PASSED, ET_WHY, ET_ARG = event_columns("EV_TEST")
(
    EH_HOW,
    EH_ATTACKER,
    EH_TARGET,
    EH_MELEE,
    EH_D,
    EH_BONUS,
    EH_DIVISOR,
    EH_MORALE_HITS,
    EH_HITS,
    EH_TOTAL,
) = event_columns("EV_HIT")
EM_A, EM_B, EM_BY_A, EM_BY_B, EM_LOSER, EM_OUTCOME = event_columns("EV_MELEE")
EC_SIDE, EC_CARD, EC_LEFT, EC_CAUSE, EC_UNIT, EC_TEST = event_columns("EV_CARD")
ES_UNIT, ES_STATE, ES_WHY, ES_ARG = event_columns("EV_STATE")
EMV_UNIT, EMV_ACTION, EMV_FROM, EMV_TO, EMV_TARGET = event_columns("EV_MOVED")
EF_UNIT, EF_FROM, EF_TO = event_columns("EV_FORMED")
(
    EWD_SIDE,
    EWD_PERCENT,
    EWD_TOTAL,
    EWD_WITHDRAWS,
    EWD_NROLLS,
    EWD_OWN,
    EWD_ENEMY,
) = event_columns("EV_WD")
(ER_ROLL,) = event_columns("EV_ROLL")
EE_WINNER, EE_REASON = event_columns("EV_END")
for _code, (_kind, _widths) in enumerate(EVENT_ROWS, 1):  # the names above in the table's order
    if globals()[_kind] != _code:
        raise ImportError(f"battle.kernel.layout: {_kind} is not in EVENT_ROWS' place")
    for _slot, (_value, _) in zip(event_columns(_kind), _widths, strict=True):
        if globals()[_value] != _slot:
            raise ImportError(f"battle.kernel.layout: {_value} is not in {_kind}'s place")
del _code, _kind, _widths, _slot, _value


def event_values(row: list[float]) -> tuple[str, dict[str, float | list[float]]]:
    """One event row (``E[i].tolist()``) read by the schema: its kind's name and each value by
    its name (a list for a value several columns wide); for reading a buffer by eye and for
    tests. ``ValueError`` for a row of no kind (an unwritten row)."""
    code = int(row[E_KIND])
    if not 1 <= code <= len(EVENT_ROWS):
        raise ValueError(f"not an event row: kind {row[E_KIND]!r}")
    kind, widths = EVENT_ROWS[code - 1]
    values: dict[str, float | list[float]] = {"E_TURN": row[E_TURN], "E_BOUND": row[E_BOUND]}
    for at, (name, width) in zip(event_columns(kind), widths, strict=True):
        values[name] = row[at] if width == 1 else row[at : at + width]
    return kind, values


# phases (battle.events.PHASES order)
(
    PH_RESPONSE,
    PH_FIRE,
    PH_MELEE,
    PH_MANOEUVRE,
    PH_CHECKS,
    PH_WITHDRAWAL,
) = range(6)

# test kinds
(
    TK_MORALE,
    TK_CASUALTY,
    TK_STAND,
    TK_CHARGE,
    TK_RALLY,
    TK_HALF,
    TK_COMPLETION,
    TK_INITIATIVE,
) = range(8)
TEST_KINDS = (
    "morale",
    "casualty",
    "stand",
    "charge",
    "rally",
    "half-strength",
    "completion",
    "initiative",
)

# test reasons
(
    TR_NONE,
    TR_TARGET,  # the charge's target (arg: unit)
    TR_FORMING,  # "to complete forming <formation>" (arg: formation)
    TR_FIRST,  # "side <arg> has the first bound"
) = range(4)

# ways of hitting (RULES.md §4, §6.10); the first three use the fire combat divisor
(
    HOW_FIRE,
    HOW_DEFENSIVE,
    HOW_MOVE_FIRE,
    HOW_MELEE,
    HOW_FREE,
    HOW_PURSUIT,
) = range(6)
HOWS = ("fire", "defensive-fire", "move-and-fire", "melee", "free-attack", "pursuit")

# melee outcomes
(
    MO_DECIDED,
    MO_BROKEN,
    MO_TIE,
    MO_ENDED,
) = range(4)
OUTCOMES = ("decided", "broken", "tie", "ended")

# card-loss causes
CC_FAILED = 0  # "<unit> failed a <test> test"
CC_MELEE = 1  # "<unit> lost a melee"

# unit states
(
    ST_SHAKEN,
    ST_ROUTED,
    ST_DESTROYED,
    ST_OFFT,
    ST_RALLIED,
    ST_STEADY,
    ST_JOINED,
    ST_REFUSED,
) = range(8)
STATES = (
    "shaken",
    "routed",
    "destroyed",
    "off-table",
    "rallied",
    "steady",
    "in the battle",
    "refused",
)

# state reasons
(
    SR_NONE,
    SR_TEST,  # the test's kind (arg)
    SR_ROUT_TEST,  # "failed a <test> test while shaken"
    SR_DESTROYED,  # "<destroyed_at> actual hits"
    SR_FELL_BACK,
    SR_DROPPED_BACK,
    SR_FORMED,  # "formed <formation>" (arg)
    SR_JOINED,  # "arrived for bound <bound>; deck rebuilt to <arg> cards"
    SR_MAY_NOT_FORM,  # "may not form <formation> directly" (arg, RULES.md §1.7)
) = range(9)

# move actions
(
    MV_ADVANCE,
    MV_CHARGE,
    MV_COUNTER,
    MV_FALL_BACK,
    MV_DROP_BACK,
    MV_PURSUE,
) = range(6)
MOVES = ("advance", "charge", "countercharge", "fall-back", "drop-back", "pursue")

# why a battle ended (RULES.md §6.8)
(
    END_NONE,
    END_CARDS,
    END_BOTH_CARDS,
    END_WITHDRAWAL,
    END_BOTH_WITHDREW,
    END_NO_UNITS,
    END_TURN_LIMIT,
    END_NIGHTFALL,
) = range(8)
#: the reason of each code: none yet, then battle.events.END_REASONS in their order
END_REASONS = ("", *events.END_REASONS)
