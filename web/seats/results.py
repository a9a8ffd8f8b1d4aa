"""What the person's games against the computers leave behind, kept as they are played.

After each hand: the moons shot and stopped and the Q♠ taken (kept with the game, counted
into the record at its end) and South's record of the hand, for the coach (``SeatHand``,
kept apart so that a reload can still review it). After each game: the stats and the
record (``web.record.history``). And the daily deal's result to share. ``SoloGame``
(``web.seats.solo_game``) calls these as the engine's events come; no DOM, pytest runs it.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

from hearts import CardPlayed, Event, Game, GameOver, HandDealt, HandScored, Phase, Rules
from hearts.seathand import SeatHand
from web import formats, words
from web.daily import counts_for_day, daily_link, parse_day, place_of, streak
from web.record import gamecode, history
from web.storage import Records

__all__ = ["Books"]


class Books:
    """The stats, the record, the daily's result and the last hand, for one page."""

    def __init__(self, records: Records, game: Game, *,
                 today: Callable[[], datetime.date],
                 on_hand: Callable[[SeatHand], None], address: str = "") -> None:
        """``today``: the person's calendar date; ``on_hand``: a hand just ended, here is
        South's record of it; ``address``: the page's, for the daily's link."""
        self.records = records
        self.address = address
        self.today = today
        self.on_hand = on_hand
        self.last_hand = formats.load_last_hand(records.last_hand(), game)
        """South's record of the game's last finished hand (None: none kept)."""
        self.so_far: SeatHand | None = None
        """South's record of the hand being played, as of the last move shown."""

    def another_game(self) -> None:
        """The page plays another game now: its hands are not this one's."""
        self.last_hand = None

    def note_hand(self, game: Game) -> None:
        """Record the hand so far as South sees it (its last cards come as events)."""
        view = game.view(0)
        self.so_far = SeatHand.from_view(view) if view.phase is Phase.PLAY else None

    def reviewable(self, hand_number: int) -> bool:
        """Whether the coach can review that hand of this game."""
        return self.last_hand is not None and self.last_hand.hand_number == hand_number

    # --- as the events come ------------------------------------------------------------------

    def hand_scored(self, saved: formats.Saved, index: int, before: list[Event]) -> None:
        """The hand scored at ``saved.game.events[index]`` (``before``: the events shown with
        it that came before it): its tallies into the game, South's record kept."""
        events = saved.game.events
        event = events[index]
        assert isinstance(event, HandScored)
        begin = next((i for i in range(index - 1, -1, -1) if isinstance(events[i], HandDealt)),
                     0)
        hand = history.hand_tally(events[begin:index], event)
        moons, stopped, queens = saved.tally
        saved.tally = (moons + hand.moons, stopped + hand.stopped, queens + hand.queens)
        so_far = self.so_far
        plays = [(e.seat, e.card) for e in before if isinstance(e, CardPlayed)]
        if so_far is None or so_far.hand_number != event.hand_number \
                or len(so_far.plays) + len(plays) != 52:
            self.last_hand = None  # (a hand taken over mid-way: its start isn't known)
            return
        self.last_hand = so_far.extended(plays)
        self.records.keep_last_hand(formats.dump_last_hand(self.last_hand))
        self.on_hand(self.last_hand)

    def game_over(self, saved: formats.Saved, event: GameOver, level: str) -> None:
        """A finished game goes into the stats and the record, once."""
        if saved.counted:
            return
        saved.counted = True
        stats = self.records.stats
        stats.played += 1
        if event.winner == 0:
            stats.won += 1
        mine = event.totals[0]
        stats.best = mine if stats.best is None else min(stats.best, mine)
        stats.total_ms += int(saved.clock_ms)
        self.records.keep_stats()
        game = saved.game
        today = self.today()
        day = parse_day(saved.daily) or today
        self.records.record.add(history.FinishedGame(
            day, level, "" if game.rules == Rules() else words.HOUSE_RULES,
            saved.daily is not None, gamecode.encode(game.seed, game.rules),
            tuple(game.hand_history),
            history.Tally(*saved.tally), game.rules.end_score), counts_for_day(day, today),
            saved.helps)
        self.records.keep_record()

    # --- what the table shows -------------------------------------------------------------------

    def badge(self, saved: formats.Saved) -> str:
        """What kind of game this is, on the felt ("" for an ordinary one)."""
        day = parse_day(saved.daily)
        if day is not None:
            return words.daily_badge(day)
        game = saved.game
        return words.code_badge(gamecode.encode(game.seed, game.rules)) if saved.from_code \
            else ""

    def daily_result(self, saved: formats.Saved) -> tuple[str, str]:
        """A finished daily's share text (the day's first result: the one that counts) and,
        if that isn't this game's, why; ("", "") for any other game."""
        day = parse_day(saved.daily)
        game = saved.game
        if game.phase is not Phase.GAME_OVER or day is None:
            return "", ""
        record = self.records.record
        mine = (game.scores[0], place_of(game.scores))
        counted = record.days.get(day)
        # (none counted once this one is in the record: it was played after its day)
        note = words.DAILY_LATE if counted is None and saved.counted else ""
        if counted is not None and counted != mine:
            note = words.DAILY_FIRST_ONLY
        shown = counted or mine
        # the help of the game shown: the counted one's as the record has it, else this one's
        helps = saved.helps if counted is None else record.helps.get(day, (0, 0))
        share = words.share_text(day, shown[0], shown[1],
                                 streak(record.days, max(day, self.today())), *helps,
                                 link=daily_link(self.address, day))
        return share, note
