"""The battle kernel's data layout: column numbers of its arrays and its integer codes.

The kernel (:mod:`battle.kernel.rules_core`, :mod:`battle.kernel.orders`,
:mod:`battle.kernel.bound`) keeps one battle as a handful of numpy arrays so that numba can
compile the rules; these constants name their columns. Module-level ints are compile-time
constants to numba.

Arrays of one battle (the ``st`` tuple, see :func:`battle.kernel.bound.set_out`):

``U``  int64 [units, NU]: per unit, the columns ``U_*`` below (flags are 0/1; unit
       references are unit indices, -1 for none). Units are indexed in id order over both
       sides (RULES.md §6.9 ties go to the lowest id).
``P``  float64 [units, NP]: position (inches from its own baseline) and where its charge began.
``S``  int64 [NS]: the battle's scalars ``S_*``.
``DK`` int64 [2, cards]: each side's deck, highest card first (RULES.md §3); ``DL`` the cards
       dealt since the last reshuffle (draw-through).
``DB`` float64 [n]: the battle's uniforms, drawn from its generator (battle.kernel.draw).
``E``  float64 [rows, EW]: the event buffer, one row per event (``EV_*`` kinds).
``OA``  int64 [units, NO]: this bound's orders; ``OG`` float64 [units]: their stop gaps.
``WK`` int64 [WK_ROWS, units], ``WB`` bool [2, units], ``CH`` int64 [units, 5] and ``CG``
       float64 [units]: working space of one step (choosing a bound's orders, the melee
       phase, the half-strength checks), laid out once per battle: a step that made its own
       arrays on each call spent more on making and counting them than on its rules.
"""

from __future__ import annotations

#: rows of WK: the enemy units that may be charged and its cavalry (orders), the pairs in
#: melee (melee phase), the units due a half-strength test
WK_TARGETS, WK_CAV, WK_PAIR_A, WK_PAIR_B = 0, 1, 2, 3
WK_DUE = 2
WK_ROWS = 4

# ---------------------------------------------------------------- U: unit integer columns
U_SIDE = 0
U_KIND = 1  # unit type index (rules' battle.units order)
U_FID = 2  # formation index (global over (type, formation) pairs)
U_HITS = 3  # actual hits taken in this battle
U_TOTAL = 4  # hits carried in + this battle's
U_HB = 5  # hits carried in
U_MORALE = 6
U_GRADE = 7  # 0 raw, 1 regular, 2 veteran, 3 elite
U_IRREG = 8
U_SHAKEN = 9
U_DISORD = 10
U_FAILED = 11  # failed its last formation-change completion test (RULES.md §5.3)
U_FROZEN = 12
U_ROUTED = 13
U_DESTR = 14
U_OFFT = 15
U_OUT = 16  # routed, destroyed or off the table
U_PRESENT = 17  # in the battle (a late arrival is 0 until it joins, RULES.md §8.4)
U_MELEE = 18
U_CBY = 19  # the enemy charging it
U_CING = 20  # the enemy it charged, until that one tests to stand
U_SVS = 21  # the charger it stood against this bound (defensive fire)
U_SBY = 22  # the unit that stood against its charge
U_CBONUS = 23
U_CCOST = 24  # its formation change's own §5.2 total
U_CTF = 25  # target of an enemy charge since its last bound
U_HBF = 26  # hit by fire since its last bound
U_RETSH = 27  # retired while shaken (counted once, RULES.md §7.2)
U_ACT = 28  # activated this bound
U_CDECL = 29  # declared a charge this bound
U_ADV = 30  # ordered to advance this bound (move-and-fire)
U_HALFMV = 31  # fired while advancing: moves half (RULES.md §6.10)
U_NOCH = 32  # variant no-charge-after-fail
U_HALFT = 33  # took (or is past) its half-strength test
U_ARR = 34  # index of the arrival that brings it, -1 for a unit there from the start
U_CHGL = 35  # charged by the enemy: tests to stand at its side's next bound
U_HALFP = 36  # due a half-strength test
NU = 37
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
S_TURN = 0
S_BOUNDS = 1
S_OVER = 2
S_WINNER = 3  # -1: a draw / not decided
S_REASON = 4
S_CHANGED = 5
S_ATTACKER = 6
S_RECORD = 7
S_CL = 8  # cards lost, + side
S_LOST = 10  # §7.1 casualties in boxes, + side
S_BOX = 12  # §7.1 boxes, + side
S_ONF = 14  # units on the field, + side
S_DN = 16  # deck size, + side
S_DEALT = 18  # cards dealt since the last reshuffle, + side
S_DI = 20  # next uniform to read
S_DNUM = 21  # uniforms in DB (drawn so far)
S_DUSED = 22  # uniforms asked for (may pass S_DNUM: the battle is then fought again)
S_EN = 23  # event rows written
S_EOVER = 24  # 1 when the event buffer overflowed (the battle is then fought again)
S_FCT = 25  # turn of the first withdrawal check, -1 none
S_TAL = 26  # §7.2 tallies: + 4 * side + T_*
S_NEXTARR = 34  # next arrival to join
S_NARR = 35  # arrivals
S_MAXB = 36  # nightfall after this many bounds, -1 none
S_NWD = 37  # withdrawal checks recorded
S_BITGEN = 38  # address of the battle generator's bitgen_t, 0 none (battle.kernel.draw)
S_DUP = 39  # 1 when two units have the same id (the battle is then refused, not fought)
NS = 40

# a unit's code in a layout's RX (battle.kernel.pack.UnitRows): the rank of its id (string
# order) above ROW_BITS, its row of TB below
ROW_BITS = 32
ROW_MASK = (1 << ROW_BITS) - 1

# tallies (RULES.md §7.2 rows a battle can fire)
T_FLAGS = 0
T_BATTERIES = 1
T_RETSH = 2
T_OFFT = 3

# ---------------------------------------------------------------- rule scalars (int)
R_INIT_ROLL = 0
R_CUMUL = 1
R_SHAKEN_PEN = 2
R_DESTROYED = 3
R_HALF = 4
R_CAS_PER_H = 5
R_HITS_PASS = 6
R_HITS_FAIL = 7
R_LOSE_AT = 8
R_DRAW_THROUGH = 9
R_REMOVE_RANDOM = 10
R_REACTION_DIE = 11
R_INIT_DIE = 12
R_CHARGE_BONUS = 13
R_WEAK_BONUS = 14
R_FIRE_AND_CHARGE = 15
R_WD_DIE = 16
R_WD_SUCCESS = 17
R_MAX_TURNS = 18
R_FROM_CHECK = 19
R_TURNS_CAP = 20
R_NO_CHARGE_AFTER_FAIL = 21
R_COUNTERCHARGE = 22
R_PURSUIT = 23
R_PURSUIT_X = 24
R_FREE_ATTACK = 25
R_FREE_X = 26
R_MOVE_FIRE = 27
R_MOVE_FIRE_X = 28
R_PCT_DIE = 29
R_HD_CONST = 30
R_FC_HBF = 31
R_FC_RAW = 32
R_FC_CT = 33
R_FC_VET = 34
R_W_FLAG = 35  # §7.2 weights, T_* order
NRI = 39

# ---------------------------------------------------------------- rule scalars (float)
RF_DEPTH = 0
RF_DEPLOY = 1
RF_FALL_BACK = 2
RF_DROP_BACK = 3
RF_STOP_SHORT = 4
RF_MF_FRACTION = 5
RF_WD_THRESHOLD = 6
NRF = 7

# ---------------------------------------------------------------- formations (int / float)
F_FIRECD = 0  # 0: cannot fire
F_MELEECD = 1
F_FIREDATX = 2
F_MAYCHARGE = 3
F_SQUARE = 4
F_TYPE = 5
NFI = 6
FF_RANGE = 0
FF_MOVE = 1
FF_REACH = 2
NFF = 3

# ---------------------------------------------------------------- unit types
T_BATTERY = 0
T_MOUNTED = 1
T_FOOT = 2
T_LIGHT = 3
T_VSSQ = 4
T_CVF = 5
T_DEPLOYS = 6  # formation index, -1 none
T_SQUARE = 7  # formation index, -1 none
NTI = 8

# ---------------------------------------------------------------- doctrines, per side
D_CH_DIS = 0
D_CH_SH = 1
D_CH_ST = 2
D_CAV_SQ = 3
D_SQ_VS_CAV = 4
D_HOLD = 5
D_ADV_DEF = 6
D_RALLY = 7
D_SHAKEN_RANK = 8
NDI = 9
DF_RATIO = 0
DF_FORM_LINE = 1
DF_UNLIMBER = 2
DF_CAV_STOP = 3
DF_STOP_SHORT = 4
NDF = 5

# ---------------------------------------------------------------- orders
O_UNIT = 0
O_ACTION = 1
O_TARGET = 2
O_FORM = 3
NO = 4
A_RALLY = 0
A_CHARGE = 1
A_FORM = 2
A_ADVANCE = 3

# ---------------------------------------------------------------- events
EW = 16  # columns: kind, turn, bound, then up to 13 values
EV_PHASE = 1  # side, phase
EV_BOUND = 2  # side, card, deck size, activated count; then that many EV_ACT rows
EV_ACT = 3  # unit
EV_TEST = 4  # test kind, unit (-1), die, roll, target, passed, reason code, reason arg
EV_HIT = 5  # how, attacker, target, melee, d, bonus, divisor, morale hits, hits, total
EV_MELEE = 6  # a, b, hits by a, hits by b, loser (-1), outcome
EV_CARD = 7  # side, card, cards left, cause code, unit, test kind
EV_STATE = 8  # unit, state, reason code, reason arg
EV_MOVED = 9  # unit, action, from, to, target (-1)
EV_FORMED = 10  # unit, from formation, to formation
EV_WD = 11  # side, percent, total, withdraws, rolls, own tallies (4), enemy tallies (4)
EV_ROLL = 12  # one withdrawal die
EV_END = 13  # winner (-1), reason

# phases (battle.events.PHASES order)
PH_RESPONSE = 0
PH_FIRE = 1
PH_MELEE = 2
PH_MANOEUVRE = 3
PH_CHECKS = 4
PH_WITHDRAWAL = 5

# test kinds
TK_MORALE = 0
TK_CASUALTY = 1
TK_STAND = 2
TK_CHARGE = 3
TK_RALLY = 4
TK_HALF = 5
TK_COMPLETION = 6
TK_INITIATIVE = 7
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
TR_NONE = 0
TR_TARGET = 1  # the charge's target (arg: unit)
TR_FORMING = 2  # "to complete forming <formation>" (arg: formation)
TR_FIRST = 3  # "side <arg> has the first bound"

# ways of hitting (RULES.md §4, §6.10); the first three use the fire combat divisor
HOW_FIRE = 0
HOW_DEFENSIVE = 1
HOW_MOVE_FIRE = 2
HOW_MELEE = 3
HOW_FREE = 4
HOW_PURSUIT = 5
HOWS = ("fire", "defensive-fire", "move-and-fire", "melee", "free-attack", "pursuit")

# melee outcomes
MO_DECIDED = 0
MO_BROKEN = 1
MO_TIE = 2
MO_ENDED = 3
OUTCOMES = ("decided", "broken", "tie", "ended")

# card-loss causes
CC_FAILED = 0  # "<unit> failed a <test> test"
CC_MELEE = 1  # "<unit> lost a melee"

# unit states
ST_SHAKEN = 0
ST_ROUTED = 1
ST_DESTROYED = 2
ST_OFFT = 3
ST_RALLIED = 4
ST_STEADY = 5
ST_JOINED = 6
STATES = ("shaken", "routed", "destroyed", "off-table", "rallied", "steady", "in the battle")

# state reasons
SR_NONE = 0
SR_TEST = 1  # the test's kind (arg)
SR_ROUT_TEST = 2  # "failed a <test> test while shaken"
SR_DESTROYED = 3  # "<destroyed_at> actual hits"
SR_FELL_BACK = 4
SR_DROPPED_BACK = 5
SR_FORMED = 6  # "formed <formation>" (arg)
SR_JOINED = 7  # "arrived for bound <bound>; deck rebuilt to <arg> cards"

# move actions
MV_ADVANCE = 0
MV_CHARGE = 1
MV_COUNTER = 2
MV_FALL_BACK = 3
MV_DROP_BACK = 4
MV_PURSUE = 5
MOVES = ("advance", "charge", "countercharge", "fall-back", "drop-back", "pursue")

# why a battle ended (RULES.md §6.8)
END_NONE = 0
END_CARDS = 1
END_BOTH_CARDS = 2
END_WITHDRAWAL = 3
END_BOTH_WITHDREW = 4
END_NO_UNITS = 5
END_TURN_LIMIT = 6
END_NIGHTFALL = 7
END_REASONS = (
    "",
    "cards",
    "both-cards",
    "withdrawal",
    "both-withdrew",
    "no-units",
    "turn-limit",
    "nightfall",
)
