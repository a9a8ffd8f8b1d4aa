"""A PlayerView holds what its seat may know, and nothing about the others' hidden cards."""

import dataclasses
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts import Card, Game, IllegalMoveError, Phase
from hearts.cards import ALL_CARDS


def play_some(game: Game, rng: random.Random, passes: list[list[Card]], plays: int) -> list[Card]:
    """Pass the given cards, then play ``plays`` random legal cards; return the plays."""
    if game.phase is Phase.PASS:
        for seat in range(4):
            if not game.pass_chosen(seat):
                game.choose_pass(seat, passes[seat])
    played = []
    for _ in range(plays):
        card = rng.choice(game.legal_plays())
        game.play(card)
        played.append(card)
    return played


def swapped_deal(dealt: list[list[Card]], untouchable: set[Card], rng: random.Random,
                 seats: tuple[int, int] = (1, 2)) -> list[list[Card]] | None:
    """Swap two same-suit cards, neither passed nor played, between two seats' deals.

    The same moves stay legal (each hand keeps its suits' lengths), so the two deals give
    games that differ only in those two seats' hidden cards.
    """
    one, two = seats
    candidates = [c for c in dealt[one] if c not in untouchable]
    for _ in range(50 if candidates else 0):
        a = rng.choice(candidates)
        options = [c for c in dealt[two] if c.suit == a.suit and c not in untouchable]
        if options:
            b = rng.choice(options)
            out = [list(hand) for hand in dealt]
            out[one] = sorted([c for c in dealt[one] if c != a] + [b])
            out[two] = sorted([c for c in dealt[two] if c != b] + [a])
            return out
    return None


def test_games_differing_only_in_hidden_cards_give_equal_views() -> None:
    compared = 0
    for seed in range(300):
        rng = random.Random(seed)
        game = Game.new(seed=seed)
        dealt = [game.hand(s) for s in range(4)]
        passes = [rng.sample(dealt[s], 3) for s in range(4)]
        plays = rng.randrange(0, 52)
        played = play_some(game, random.Random(seed), passes, plays)
        untouchable = set(played) | {c for p in passes for c in p}
        other_deal = swapped_deal(dealt, untouchable, rng)
        if other_deal is None:
            continue
        other = Game.from_deal(other_deal, seed=seed)
        play_some(other, random.Random(seed), passes, 0)
        for card in played:  # the same moves: still legal, as each hand's suits are unchanged
            other.play(card)
        assert other.view(0) == game.view(0)  # South can't tell the two deals apart
        assert other.view(3) == game.view(3)
        assert other.view(1) != game.view(1)  # West can
        compared += 1
    assert compared > 200


def test_the_view_holds_what_the_seat_may_know() -> None:
    rng = random.Random(1)
    game = Game.new(seed=1)
    dealt = [game.hand(s) for s in range(4)]
    view = game.view(2)
    assert view.phase is Phase.PASS and view.hand == tuple(game.hand(2))
    assert view.pass_chosen == (False, False, False, False) and view.passed is None
    game.choose_pass(0, game.hand(0)[:3])
    assert game.view(2).pass_chosen == (True, False, False, False)
    assert game.view(2).passed is None  # South's choice stays hidden from North
    assert game.view(0).passed == tuple(game.hand(0)[:3])
    passes = [game.hand(s)[:3] for s in range(4)]
    play_some(game, rng, passes, 0)
    played = []
    for _ in range(9):
        played.append(rng.choice(game.legal_plays()))
        game.play(played[-1])
    view = game.view(game.to_play or 0)
    assert view.my_turn and view.legal_plays == tuple(game.legal_plays())
    assert game.view((view.seat + 1) % 4).legal_plays == ()
    assert [str(c) for _, c in view.plays()] == [str(c) for t in game.tricks for c in t.cards] + [
        str(c) for c in (game.current_trick.cards if game.current_trick else ())]
    assert view.hand_sizes == tuple(len(game.hand(s)) for s in range(4))
    assert view.played_mask & view.hand_mask == 0
    assert sum(view.hand_sizes) + bin(view.played_mask).count("1") == 52
    assert view.scores == game.scores and view.hand_points == game.hand_points
    # The same game with two of the other seats' hidden cards swapped: this seat's view
    # can't tell them apart, though those seats' own views can.
    others = tuple(s for s in range(4) if s != view.seat)[:2]
    swapped = swapped_deal(dealt, set(played) | {c for p in passes for c in p}, rng,
                           (others[0], others[1]))
    assert swapped is not None
    twin = Game.from_deal(swapped, seed=1)
    play_some(twin, rng, passes, 0)
    for card in played:
        twin.play(card)
    assert twin.view(view.seat) == view
    assert twin.view(others[0]) != game.view(others[0])
    # And no card in any field of the view is one this seat can't know about.
    # Known from the game, not the view: its hand, the cards played, what it passed and,
    # as hand 1 passes left, what the seat on its right passed to it.
    known = set(game.hand(view.seat)) | set(played) | set(passes[view.seat]) | set(
        passes[(view.seat - 1) % 4])
    assert cards_in(view) <= known


def cards_in(value: object) -> set[Card]:
    """Every Card reachable from ``value`` through dataclass fields and tuples."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, tuple | list):
        return set().union(*(cards_in(v) for v in value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return set().union(*(cards_in(getattr(value, f.name))
                             for f in dataclasses.fields(value)))
    return set()


def test_voids_are_learned_from_failing_to_follow() -> None:
    game = Game.from_deal(["2C3C4C5C6C7C8C9CTCJCQCKCAC", "2D3D4D5D6D7D8D9DTDJDQDKDAD",
                           "2H3H4H5H6H7H8H9HTHJHQHKHAH", "2S3S4S5S6S7S8S9STSJSQSKSAS"],
                          history=[(13, 13, 0, 0)] * 3)
    for card in ["2C", "2D", "2H", "2S"]:
        game.play(card)
    voids = game.view(0).voids()
    clubs = 0x1FFF
    assert voids == (0, clubs, clubs, clubs)


def random_positions(seed: int) -> list[Game]:
    """Copies of one random game at many moments: passing, mid-trick, between hands, over."""
    rng = random.Random(seed)
    game = Game.new(seed=seed)
    out = [game.copy()]
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PASS:
            for seat in rng.sample(range(4), 4):
                game.choose_pass(seat, rng.sample(game.hand(seat), 3))
                out.append(game.copy())
        else:
            game.play(rng.choice(game.legal_plays()))
            if rng.random() < 0.05:
                out.append(game.copy())
    out.append(game)
    return out


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_the_view_refuses_a_play_with_the_games_words(seed: int) -> None:
    for game in random_positions(seed):
        for seat in range(4):
            view = game.view(seat)
            for card in ALL_CARDS:
                assert view.why_illegal(card) == game.why_illegal(card, seat), (
                    game.to_text(), seat, card)
                assert (view.why_illegal(card) is None) == (card in view.legal_plays)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32), st.randoms(use_true_random=False))
def test_the_view_refuses_a_pass_with_the_games_words(seed: int, rng: random.Random) -> None:
    for game in random_positions(seed)[:12]:
        for seat in range(4):
            view = game.view(seat)
            own = list(view.hand)
            mine = min(3, len(own))
            if mine < 1:
                continue  # nothing of its own left to offer
            for cards in (rng.sample(own, mine), rng.sample(own, mine - 1), own[:1] * 3,
                          rng.sample(own, mine - 1) + rng.sample(ALL_CARDS, 1),
                          rng.sample(ALL_CARDS, 3)):
                reason = game.why_pass_refused(seat, cards)
                assert view.why_pass_refused(cards) == reason, (game.to_text(), seat, cards)
                if reason is not None:
                    with pytest.raises(IllegalMoveError, match=re.escape(reason)):
                        game.copy().choose_pass(seat, cards)
                else:
                    game.copy().choose_pass(seat, cards)  # no refusal: the pass is taken


def test_a_pass_is_refused_in_the_persons_words() -> None:
    game = Game.new(seed=6)
    hand = game.hand(0)
    west = game.hand(1)
    assert game.why_pass_refused(0, hand[:3]) is None
    assert game.why_pass_refused(0, hand[:2]) == "Choose exactly three different cards to pass."
    assert game.why_pass_refused(0, [hand[0], west[0], west[1]]) == (
        f"The {west[0].name} and the {west[1].name} are not in your hand.")
    game.choose_pass(0, hand[:3])
    assert game.why_pass_refused(0, hand[3:6]) == (
        "You have already chosen your three cards to pass.")
    for seat in (1, 2, 3):
        game.choose_pass(seat, game.hand(seat)[:3])
    assert game.why_pass_refused(1, game.hand(1)[:3]) == (
        "It's not time to pass cards: the passing is over.")
