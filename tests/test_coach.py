"""The coach: a hand reviewed play by play from the seat's own views, and nothing else."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import hearts.bots.hard
from hearts import Card, CardPlayed, Game, Phase, PlayerView, Rules, TrickWon
from hearts.bots import make
from hearts.bots.hard import choose_pass_heuristic
from hearts.cards import cards_of_mask, mask_of
from hearts.coach import (
    COULD_DROP,
    DUCK,
    EXPECTED,
    KEPT_CARD,
    OWN_QUEEN,
    QUEEN_DROPPED,
    TOOK_POINTS,
    Coach,
    HandReview,
    Progress,
)
from hearts.rules import PassDirection, pass_target
from hearts.seathand import SeatHand, giver_of
from tests.scripted import NO_PASS_HISTORY, game_from, play_all

SMALL = {"iterations": 300, "pass_deals": 40}
Finished = tuple[SeatHand, HandReview]
"""The module's finished hand and its review (the fixture ``finished``)."""
"""A quick coach for tests: fewer playouts, the same code."""


def passes_for(game: Game) -> list[list[Card]]:
    """Each seat's pass as the normal player chooses it."""
    return [make("normal", seat).choose_pass(game.view(seat)) for seat in range(4)]


def play_out(game: Game, *, stop: int = 52, seat: int = 0) -> SeatHand:
    """Play the current hand with the normal players (the passes too, if due), recording
    it as ``seat`` sees it; stop after ``stop`` plays (then: the hand so far)."""
    bots = [make("normal", s) for s in range(4)]
    if game.phase is Phase.PASS:
        for s, cards in enumerate(passes_for(game)):
            if not game.pass_chosen(s):
                game.choose_pass(s, cards)
    number = game.hand_number
    record = SeatHand.from_view(game.view(seat))
    while len(record.plays) < stop and game.hand_number == number:
        record = SeatHand.from_view(game.view(seat))
        seen = len(game.events)
        mover = game.to_play
        assert mover is not None
        game.play(bots[mover].choose_play(game.view(mover)))
        played = [(e.seat, e.card) for e in game.events[seen:] if isinstance(e, CardPlayed)]
        if game.hand_number != number:
            record = record.extended(played)
    if game.hand_number == number:
        record = SeatHand.from_view(game.view(seat))
    return record


@pytest.fixture(scope="module")
def finished() -> tuple[SeatHand, HandReview]:
    record = play_out(Game.new(seed=4))
    return record, Coach(**SMALL).review(record)


# --- the shape of a review ---------------------------------------------------------------

def test_a_finished_hand_has_a_review_of_each_of_the_thirteen_plays(finished: Finished) -> None:
    record, review = finished
    mine = [card for seat, card in record.plays if seat == 0]
    assert record.complete and review.complete
    assert [p.card for p in review.plays] == mine
    assert [p.trick for p in review.plays] == list(range(1, 14))


def test_flagged_plays_cost_at_least_the_threshold_and_the_rest_less() -> None:
    coach = Coach(**SMALL)
    flagged_any = False
    for seed in range(4):
        review = coach.review(play_out(Game.new(seed=seed)))
        for play in review.plays:
            assert play.cost == pytest.approx(play.value - play.best_value)
            assert play.best_value <= play.value
            assert play.flagged == (play.cost >= coach.threshold)
            assert (play.reason is not None) == play.flagged
            flagged_any |= play.flagged
        lost = sum(p.cost for p in review.flagged)
        if review.passing is not None and review.passing.flagged:
            lost += review.passing.cost
        assert review.lost == pytest.approx(lost)
    assert flagged_any, "four hands of the normal player without one flagged play"


def test_a_play_with_one_legal_card_is_forced_and_costs_nothing(finished: Finished) -> None:
    record, review = finished
    replay = record.decisions()
    for decision, play in zip(replay.decisions, review.plays, strict=True):
        if len(decision.view.legal_plays) == 1:
            assert play.forced and play.cost == 0 and not play.flagged
        else:
            assert not play.forced


def test_a_choice_between_equivalent_cards_still_gets_its_expected_points() -> None:
    """South has taken 15 points (the Q♠ among them) when it must follow diamonds with the
    9♦ or the 10♦, which make no difference: the figure shown is the hand's expected
    points, about 16, not the 0 a player's search gives a choice that doesn't matter."""
    game = game_from({"S": "=AC AS 9D TD 2S 3S 4S 5S 6S 7S 8S 9S TS",
                      "W": "=2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC QS",
                      "N": "=2D 3D 4D 5D 6D 7D 8D JD QD KD AD KS JS"},
                     history=NO_PASS_HISTORY)
    play_all(game, "2C 2D 2H AC  AS QS KS 3H  2S 3C JS 4H  3D 5H")
    assert game.to_play == 0 and game.legal_plays() == [Card.parse("9D"), Card.parse("TD")]
    play_all(game, "9D 4C")
    review = Coach(**SMALL).review(SeatHand.from_view(game.view(0)))
    last = review.plays[-1]
    assert last.card == Card.parse("9D") and not last.forced and last.cost == 0
    assert last.value == last.best_value and last.value > 15


def test_each_reason_is_true_of_what_happened_in_the_hand() -> None:
    coach = Coach(**SMALL, threshold=0.3)  # a low bar: more reasons to check
    kinds = set()
    for seed in range(8):
        record = play_out(Game.new(seed=seed))
        tricks = record.decisions().tricks
        for play in coach.review(record).flagged:
            reason = play.reason
            assert reason is not None and reason.card == play.card and reason.best == play.best
            kinds.add(reason.kind)
            this = tricks[play.trick - 1]
            if reason.kind == QUEEN_DROPPED:
                queen = Card.parse("QS")
                assert this.seat == 0 and queen in this.cards and play.card != queen
                assert reason.seat == (this.leader + this.cards.index(queen)) % 4
            elif reason.kind == OWN_QUEEN:
                assert this.seat == 0 and play.card == Card.parse("QS")
            elif reason.kind == DUCK:  # South played last, and the best card was lower
                led = this.cards[0].suit
                assert this.seat == 0 and this.cards[3] == play.card and play.best.suit == led
                others = [(c, k) for k, c in enumerate(this.cards[:3]) if c.suit == led]
                top, at = max(others)
                assert play.best < top and reason.seat == (this.leader + at) % 4
                assert reason.points == this.points
            elif reason.kind == COULD_DROP:  # off suit: the same seat takes the trick
                led = this.cards[0].suit
                assert play.card.suit != led and play.best.suit != led
                assert play.best.points > 0 and reason.seat == this.seat != 0
            elif reason.kind == TOOK_POINTS:
                assert this.seat == 0 and this.points == reason.points > 0
            elif reason.kind == KEPT_CARD:
                later = tricks[reason.trick - 1]
                assert reason.trick > play.trick and play.best in later.cards
                assert later.seat == 0 and later.points == reason.points > 0
            else:
                assert reason.kind == EXPECTED
    assert len(kinds) >= 3, kinds


# --- deterministic and cooperative ---------------------------------------------------------

def test_the_same_hand_always_gets_the_same_review(finished: Finished) -> None:
    _, review = finished
    again = Coach(**SMALL, chunk_ms=0.1).review(play_out(Game.new(seed=4)))
    assert again == review


def test_the_review_yields_its_progress_between_slices(finished: Finished) -> None:
    record, review = finished
    steps = Coach(**SMALL, chunk_ms=0.5).review_steps(record)
    progress: list[Progress] = []
    while True:
        try:
            progress.append(next(steps))
        except StopIteration as stop:
            result = stop.value
            break
    assert result == review
    assert len(progress) > 14  # more than one slice a decision: the search itself yields
    assert {p.total for p in progress} == {14}  # the pass and 13 plays
    tricks = [p.trick for p in progress]
    assert tricks == sorted(tricks) and tricks[0] == 0 and tricks[-1] == 13
    assert [p.done for p in progress] == sorted(p.done for p in progress)


# --- the pass ---------------------------------------------------------------------------------

def test_passing_the_hard_players_own_three_costs_nothing() -> None:
    game = Game.new(seed=8)
    mine = choose_pass_heuristic(game.hand(0))
    game.choose_pass(0, mine)
    review = Coach(**SMALL).review(play_out(game))
    assert review.passing is not None and review.passing.same
    assert review.passing.cost == 0 and not review.passing.flagged


def test_another_pass_is_compared_with_the_hard_players_choice() -> None:
    game = Game.new(seed=8)
    hard = choose_pass_heuristic(game.hand(0))
    others = [c for c in game.hand(0) if c not in hard][:3]  # the three lowest clubs...
    game.choose_pass(0, others)
    review = Coach(**SMALL).review(play_out(game))
    passing = review.passing
    assert passing is not None and not passing.same
    assert set(passing.passed) == set(others) and set(passing.suggested) == set(hard)
    assert passing.cost == pytest.approx(max(0.0, passing.value - passing.best_value))
    assert passing.flagged == (passing.cost >= 1.0)


@pytest.mark.parametrize("seed", [4, 40])
def test_passing_the_jack_away_is_a_mistake_when_it_counts_minus_ten(seed: int) -> None:
    """South passes the three cards the hard player would pass under the standard rules,
    the J♦ among them. Under the J♦ rule the coach's own three keep it, and played out
    with the J♦ worth −10 to its taker, South's pass costs points."""
    jack = Card.parse("JD")
    for rules, costly in ((Rules(), False), (Rules(jd_bonus=True), True)):
        game = Game.new(seed=seed, rules=rules)
        mine = choose_pass_heuristic(game.hand(0))
        assert jack in mine
        game.choose_pass(0, mine)
        passing = Coach(**SMALL).review(play_out(game)).passing
        assert passing is not None
        assert passing.same is not costly and (jack in passing.suggested) is not costly
        assert passing.flagged is costly


def test_a_hand_without_passing_has_no_pass_review() -> None:
    game = Game.new(seed=2)
    game = Game(2, hands=[mask_of(game.hand(s)) for s in range(4)], history=NO_PASS_HISTORY)
    assert game.pass_direction is PassDirection.NONE
    review = Coach(**SMALL).review(play_out(game))
    assert review.passing is None and len(review.plays) == 13


# --- honesty: only what the seat saw -----------------------------------------------------------

def test_other_seats_passes_among_themselves_do_not_change_the_review() -> None:
    """Same hands after the exchange, same plays, same pass for South: the passes between
    the other seats (which South never sees) differ, and so do their dealt hands."""
    first = Game.new(seed=11)
    passes = [mask_of(p) for p in passes_for(first)]
    direction = first.pass_direction
    after = [mask_of(first.hand(s)) for s in range(4)]
    for seat in range(4):
        after[seat] = after[seat] & ~passes[seat]
    for seat in range(4):
        after[pass_target(seat, direction)] |= passes[seat]
    # West's pass goes to North (pass left): West passes three other cards of North's hand.
    assert direction is PassDirection.LEFT
    other = passes[:]
    other[1] = mask_of([c for c in cards_of_mask(after[2]) if not c.mask & passes[1]][:3])
    dealt = [after[s] & ~other[giver_of(s, direction)] | other[s] for s in range(4)]
    second = Game(11, hands=dealt, history=[])
    assert mask_of(second.hand(0)) == mask_of(first.hand(0))
    assert mask_of(second.hand(1)) != mask_of(first.hand(1))
    for seat in range(4):
        first.choose_pass(seat, cards_of_mask(passes[seat]))
        second.choose_pass(seat, cards_of_mask(other[seat]))
    assert [second.hand(s) for s in range(4)] == [first.hand(s) for s in range(4)]
    record = play_out(first)
    coach = Coach(**SMALL)
    assert coach.review(record) == coach.review(_replayed(second, record.plays))


def _replayed(game: Game, plays: tuple[tuple[int, Card], ...]) -> SeatHand:
    """Play ``plays`` (a whole hand) in ``game``, recording it as South sees it."""
    for seat, card in plays[:-1]:
        assert game.to_play == seat
        game.play(card)
    so_far = SeatHand.from_view(game.view(0))
    seen = len(game.events)
    game.play(plays[-1][1])
    return so_far.extended([(e.seat, e.card) for e in game.events[seen:]
                            if isinstance(e, CardPlayed)])


def _swapped_games(seed: int) -> tuple[Game, Game, int]:
    """Two no-pass deals alike but for two spades swapped between West and North (the
    highest of their spades and the lowest of the other seat's); the same first plays
    (neither swapped card among them), South to play next."""
    base = Game.new(seed=seed)
    hands = [mask_of(base.hand(s)) for s in range(4)]
    spades = {seat: [c for c in cards_of_mask(hands[seat]) if c.suit == 3] for seat in (1, 2)}
    high = max(spades[1] + spades[2])
    holder = 1 if high in spades[1] else 2
    low = min(spades[3 - holder])
    swapped = hands[:]
    swapped[holder] = hands[holder] & ~high.mask | low.mask
    swapped[3 - holder] = hands[3 - holder] & ~low.mask | high.mask
    one = Game(seed, hands=hands, history=NO_PASS_HISTORY)
    two = Game(seed, hands=swapped, history=NO_PASS_HISTORY)
    bots = [make("normal", s) for s in range(4)]
    plays = 0
    while plays < 20 or one.to_play != 0:
        seat = one.to_play
        assert seat is not None
        card = bots[seat].choose_play(one.view(seat))
        if card in (high, low):  # keep both unseen: any other legal card
            card = next(c for c in one.legal_plays() if c not in (high, low))
        one.play(card)
        two.play(card)
        plays += 1
    assert one.view(0) == two.view(0)
    assert one.hand(1) != two.hand(1)
    return one, two, plays


def test_cards_south_has_not_seen_do_not_change_the_review_of_the_hand_so_far() -> None:
    one, two, _ = _swapped_games(seed=21)
    coach = Coach(**SMALL)
    first = coach.review(SeatHand.from_view(one.view(0)))
    assert not first.complete and len(first.plays) >= 4
    assert coach.review(SeatHand.from_view(two.view(0))) == first


def test_a_coach_that_peeked_would_tell_those_two_deals_apart(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The control of the test above: the two deals differ in a way that matters, so a
    coach reading the real hidden hands would give two different reviews."""
    one, two, _ = _swapped_games(seed=21)
    reviews = []
    for game in (one, two):
        real = [mask_of(game.hand(s)) for s in range(4)]
        played_now = [0, 0, 0, 0]
        for seat, card in SeatHand.from_view(game.view(0)).plays:
            played_now[seat] |= card.mask
        after = [real[s] | played_now[s] for s in range(4)]

        class Peeking:
            def __init__(self, view: PlayerView, after: list[int] = after) -> None:
                self.hands = [after[s] & ~view.played_mask for s in range(4)]

            def sample(self, rng: random.Random) -> list[int]:
                return self.hands[:]

        monkeypatch.setattr(hearts.bots.hard, "DealSampler", Peeking)
        reviews.append(Coach(**SMALL).review(SeatHand.from_view(game.view(0))))
    assert reviews[0] != reviews[1]


# --- the record ---------------------------------------------------------------------------------

def test_a_finished_hand_round_trips_through_plain_data(finished: Finished) -> None:
    record, _ = finished
    again = SeatHand.from_dict(record.to_dict(), record.rules)
    assert again == record
    assert again.decisions().decisions == record.decisions().decisions


@pytest.mark.parametrize("damage", [
    lambda d: d.update(plays=d["plays"][:-3] + d["plays"][-6:-3]),  # a card twice
    lambda d: d.update(seat=7),
    lambda d: d.update(dealt="2C3C"),
    lambda d: d.update(passed=None),
    lambda d: d.update(history="x"),
    lambda d: d.update(plays=d["plays"].replace("0", "1", 1)),  # a play by the wrong seat
])
def test_a_damaged_record_is_refused(finished: Finished,
                                        damage: Callable[[dict[str, Any]], None]) -> None:
    record, _ = finished
    data = record.to_dict()
    damage(data)
    with pytest.raises(ValueError):
        SeatHand.from_dict(data, record.rules)


def test_the_tricks_of_the_replay_are_the_games(finished: Finished) -> None:
    record, _ = finished
    game = Game.new(seed=4)
    play_out(game)
    won = [e for e in game.events if isinstance(e, TrickWon)]
    assert record.decisions().tricks == tuple(won)
