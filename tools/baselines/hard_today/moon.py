"""How a computer that shot the moon scores it when the shooter chooses.

Under ``MoonScoring.SHOOTER_CHOOSES`` the shooter picks "others +26" or "shooter −26".
Both move the shooter the same 26 points against every other player, so the choice only
matters for the end of the game. The rule, for the shooter's own good:

1. a choice that ends the game with the shooter winning it comes first;
2. a choice that ends the game with someone else winning comes last;
3. otherwise, if the shooter is then alone in the lead it adds 26 to the others (the end
   comes nearer while it is ahead), and if not it takes 26 off its own score (the game
   lasts longer while it is behind).
"""

from __future__ import annotations

from hearts.rules import NUM_SEATS, MoonScoring, hand_scores
from hearts.view import MOON_OPTIONS, PlayerView

__all__ = ["better_moon_scoring"]


def better_moon_scoring(view: PlayerView) -> MoonScoring:
    """The better of the two moon scorings for the seat of ``view`` (the shooter).

    Raises ValueError when ``view`` is not a shooter's choice (``view.moon_chooser``).
    """
    if view.moon_chooser != view.seat:
        raise ValueError(f"seat {view.seat} has no moon to score in this view")
    me = view.seat

    def rank(choice: MoonScoring) -> tuple[int, int]:
        scores, _ = hand_scores(view.hand_points, view.rules, view.jd_taker, choice)
        totals = [view.scores[s] + scores[s] for s in range(NUM_SEATS)]
        low = min(totals)
        ends = max(totals) >= view.rules.end_score and totals.count(low) == 1
        outcome = 1 if not ends else (0 if totals[me] == low else 2)
        leading = totals[me] == low and totals.count(low) == 1
        preferred = MoonScoring.OTHERS_PLUS_26 if leading else MoonScoring.SHOOTER_MINUS_26
        return outcome, 0 if choice is preferred else 1

    return min(MOON_OPTIONS, key=rank)
