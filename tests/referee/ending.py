"""The referee's part for the end of a battle: withdrawal checks (RULES.md §7) and the end
itself (§6.8). Mixed into :class:`referee.Referee`, whose state it reads."""

from __future__ import annotations

from typing import Any


class Ending:
    """Withdrawal checks and the end (see :class:`referee.Referee`)."""

    rules: dict[str, Any]
    # the rest of the state is the Referee's (units, decks, tallies, phase, turn, ...)

    # ------------------------------------------------------------------ withdrawal and end
    def on_WithdrawalChecked(self, e: dict) -> None:
        r, w = self.rules, self.rules["withdrawal"]
        s = e["side"]
        if self.phase != "withdrawal":
            self.bad(e, "a withdrawal check outside the withdrawal phase")
        if self.first_check is None:
            self.first_check = self.turn
        pct = 100.0 * self.lost[s] / self.boxes[s] if self.boxes[s] else 0.0
        if abs(pct - e["casualty_percent"]) > 0.01 or pct < w["threshold_percent"]:
            self.bad(e, f"casualties {e['casualty_percent']}%, the referee counts {pct:.3f}%")
        total = self.factor_total(s)
        if e["total"] != total or sum(f["factors"] for f in e["factors"]) != total:
            self.bad(e, f"side {s} rolls {e['total']} dice, §7.2 gives {total}")
        if len(e["rolls"]) != max(total, 0) or not all(
            1 <= x <= r["withdrawal_die"] for x in e["rolls"]
        ):
            self.bad(e, f"rolled {e['rolls']} for {total} factors")
        if (e["die"], e["success_total"]) != (r["withdrawal_die"], r["withdrawal_success_total"]):
            self.bad(e, "the check's die or success total is not the config's")
        if e["withdraws"] != (sum(e["rolls"]) >= r["withdrawal_success_total"]):
            self.bad(e, f"sum {sum(e['rolls'])} misjudged")
        self.checks.append(e)

    def pct(self, s: int) -> float:
        """RULES.md §7.1 casualty fraction in percent."""
        return 100.0 * self.lost[s] / self.boxes[s] if self.boxes[s] else 0.0

    def factor_total(self, s: int) -> int:
        """RULES.md §7.2: the dice side ``s`` rolls (own losses +, the enemy's −, losses)."""
        w = self.rules["withdrawal"]
        own, enemy = self.tally[s], self.tally[1 - s]
        rows = (
            ("flag", "flags"),
            ("battery", "batteries"),
            ("retiring_shaken", "retiring_shaken"),
            ("off_table", "off_table"),
        )
        total = sum(w[weight] * (own[count] - enemy[count]) for weight, count in rows)
        steps = [step["factors"] for step in w["losses"] if self.pct(s) >= step["percent"]]
        return total + max(steps, default=0)

    def close_withdrawal_phase(self, e: dict) -> str | None:
        """§7.3–§7.4: who had to check, in what order, and what follows."""
        threshold = self.rules["withdrawal"]["threshold_percent"]
        must = [s for s in (0, 1) if self.pct(s) >= threshold]
        totals = {s: self.factor_total(s) for s in must}
        order = sorted(must, key=lambda s: -totals[s])  # stable: side order on a tie
        made = [c["side"] for c in self.checks]
        want = order[:1]
        if len(order) == 2:
            first = self.checks[0] if self.checks else None
            equal = totals[order[0]] == totals[order[1]]
            if first is None or not first["withdraws"] or equal:
                want = order
        if made != want:
            self.bad(e, f"checks by sides {made}, §7.4 calls for {want}")
        withdrew = [c["side"] for c in self.checks if c["withdraws"]]
        self.last_withdrew = withdrew[0] if withdrew else -1
        self.checks = []
        if len(withdrew) == 2:
            return "both-withdrew"
        return "withdrawal" if withdrew else None

    def on_BattleEnded(self, e: dict) -> None:
        self.boundary(e)
        why = self.ended_now()
        if self.phase == "withdrawal":
            why = self.close_withdrawal_phase(e) or why
        reason, winner = e["reason"], e["winner"]
        if reason in ("turn-limit", "nightfall"):
            if why:
                self.bad(e, f"a {reason} draw where the rules end it on {why}")
            if reason == "turn-limit":
                self.turn_limit_reached(e)
        elif reason != why:
            self.bad(e, f"ended on {reason}, the rules say {why}")
        elif reason == "cards":
            lose = self.rules["deck"]["lose_at_cards"]
            if winner is None or len(self.decks[1 - winner]) > lose:
                self.bad(e, "the winner is the side down to its last card")
        elif reason in ("withdrawal", "no-units"):
            gone = [
                s for s in (0, 1) if not any(u.side == s and not u.out for u in self.units.values())
            ]
            if reason == "no-units" and len(gone) == 2:
                if winner is not None:
                    self.bad(e, "both sides are gone: a draw")
            else:
                loser = self.last_withdrew if reason == "withdrawal" else gone[0]
                if winner != 1 - loser:
                    self.bad(e, f"winner {winner}, but side {loser} lost")
        self.ended = True

    def turn_limit_reached(self, e: dict) -> None:
        r = self.rules
        limit = r["max_turns"]
        if r.get("turn_limit_from") == "first-check":
            due = (
                min(self.first_check + limit, r["max_turns_cap"])
                if self.first_check is not None
                else r["max_turns_cap"]
            )
        else:
            due = min(limit, r["max_turns_cap"])
        if self.turn != due:
            self.bad(e, f"turn-limit draw after turn {self.turn}, due after turn {due}")
