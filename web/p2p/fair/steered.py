"""A computer at a fair table plays as its bot, checkably: every page replays its decisions.

A computer's seat is played by one page, which knows its cards (``computer``). That page
could play it by a policy of its own — dump points on another person — and every card
would still be one the seat holds and may play. So the computer's choices are a function
of its view and a seed no page chooses: the hard player (``HardBot``, a fixed number of
playouts and no time cap, so the same on every machine) seeded from the table's name, the
hash of every page's bytes in the seat draw (``seating``), and the seat. Once the hand's
keys are shown, every page knows what the computer was dealt, passed and received (its
hand is the cards it played: ``played``), rebuilds its view at each decision exactly as the
computer's table showed it (``PublicHand.view``), asks the same bot, and names the page
whose computer played otherwise (``Cheat.STEERED``), in slices (``replay_steps``). No I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Generator, Sequence

from hearts.bots.hard import DEFAULT_ITERATIONS, HardBot
from hearts.cards import Card
from hearts.rules import NUM_SEATS, PassDirection, Rules
from web.p2p.fair.public import PublicHand, Score
from web.p2p.fair.transcript import Cheat, Fault, Play

__all__ = ["ITERATIONS", "Replay", "bot", "bot_seed", "replay_steps"]

ITERATIONS = DEFAULT_ITERATIONS // 3
"""Playouts per decision of a fair table's computer. With no time cap its page takes as
long as the machine needs, and every page replays each decision: a third of the hard
player's 3000 (which gained about 0.1 point a hand over 1200) keeps a phone's card about as
quick as the 1 s cap did, and the replay a third of the cost (``docs/protocol.md``,
Cost)."""


def bot_seed(table: str, seat: int) -> int:
    """The seed of the computer at ``seat``: from the table's name, which no page chose."""
    digest = hashlib.sha256(f"hearts fair computer {table} {seat}".encode()).digest()
    return int.from_bytes(digest[:7], "big") >> 3  # 53 bits


def bot(table: str, seat: int) -> HardBot:
    """The computer at ``seat``, as its page plays it and every page replays it: no time
    cap, so its choice is the same however slow the machine."""
    return HardBot(bot_seed(table, seat), budget_ms=None, iterations=ITERATIONS)


class Replay:
    """The computers' decisions of one scored hand, replayed at one page in slices, while
    the game goes on (``FairTable``): ``index``, the hand's place in the history (charged
    to the page that steered, if one did); ``pages``: computer seat -> the seat of the
    person whose page plays it."""

    def __init__(self, table: str, pages: dict[int, int], *, index: int, started: float,
                 dealt: Sequence[Sequence[Card]], plays: Sequence[Play], rules: Rules,
                 hand_number: int, direction: PassDirection, scores: Score,
                 history: Sequence[Score]) -> None:
        self.index = index
        self.started = started
        self._steps = self._all(pages, [
            replay_steps(seat, bot(table, seat), dealt=dealt[seat], plays=tuple(plays),
                         rules=rules, hand_number=hand_number, direction=direction,
                         scores=scores, history=tuple(history)) for seat in sorted(pages)])

    @staticmethod
    def _all(pages: dict[int, int], replays: list[Generator[None, None, Fault | None]]
             ) -> Generator[None, None, Fault | None]:
        for seat, replay in zip(sorted(pages), replays, strict=True):
            fault = yield from replay
            if fault is not None:  # the page that plays it is named, as its person's seat
                return Fault(pages[seat], fault.kind, fault.card)
        return None

    def step(self) -> tuple[bool, Fault | None]:
        """One slice: whether the replay is done, and if so the page that steered (None:
        every computer played as its bot)."""
        try:
            next(self._steps)
            return False, None
        except StopIteration as done:
            return True, done.value


def replay_steps(seat: int, player: HardBot, *, dealt: Sequence[Card], plays: Sequence[Play],
                 rules: Rules, hand_number: int, direction: PassDirection, scores: Score,
                 history: Sequence[Score]) -> Generator[None, None, Fault | None]:
    """Replay the computer at ``seat`` through its hand: its pass (``dealt``: its 13 cards
    as dealt) and each card it played; the first decision its page made otherwise, as a
    fault of its seat (None: it played as its bot). Yields between slices of the bot's
    search. For a hand whose 52 cards were played."""
    played = {p.card for p in plays if p.seat == seat}
    passed = tuple(sorted(set(dealt) - played)) if direction is not PassDirection.NONE \
        else None
    received = tuple(sorted(played - set(dealt))) if passed is not None else None
    if passed is not None:
        view = PublicHand(()).view(
            seat, rules=rules, hand_number=hand_number, direction=direction,
            hand=sorted(dealt), passed=None, received=None, chosen=[False] * NUM_SEATS,
            to_play=None, scores=scores, history=history, playing=False, legal=())
        chosen = yield from player.choose_pass_steps(view)
        if tuple(sorted(chosen)) != passed:
            return Fault(seat, Cheat.STEERED)
    hand = set(played)
    for k, play in enumerate(plays):
        if play.seat != seat:
            continue
        public = PublicHand(tuple(plays[:k]))
        cards = sorted(hand)
        view = public.view(
            seat, rules=rules, hand_number=hand_number, direction=direction, hand=cards,
            passed=passed, received=received, chosen=[passed is not None] * NUM_SEATS,
            to_play=seat, scores=scores, history=history, playing=True,
            legal=public.legal(cards, rules))
        card = yield from player.choose_play_steps(view)
        if card != play.card:
            return Fault(seat, Cheat.STEERED, play.card)
        hand.discard(play.card)
    return None
