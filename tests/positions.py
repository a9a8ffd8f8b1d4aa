"""Random positions for the computer players' tests: seeded games stopped where a card is
to be played, and twin games that look the same to the seat to play."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from hearts import Card, Game, Phase, PlayerView
from hearts.cards import SUIT_MASKS, cards_of_mask, mask_of
from hearts.game import deal
from hearts.handstate import HandState
from hearts.rules import Rules

__all__ = ["PlayoutTurn", "play_card_by_card", "random_positions", "twin_games",
           "view_to_play"]


@dataclass(frozen=True)
class PlayoutTurn:
    """What a playout policy is told at one turn, worked out from the rules engine's state:
    ``led`` suit, ``top`` card so far and its place ``top_at``, the ``points`` in the trick,
    whether the queen of spades is still out, and the mask of cards ``played``."""

    state: HandState
    led: int
    top: int
    top_at: int
    points: int
    qs_out: bool
    played: int


def play_card_by_card(hands: list[int], rules: Rules,
                      pick: Callable[[PlayoutTurn], int]) -> HandState:
    """Play a deal to its end through the rules engine, each card the one ``pick`` names,
    checking every card is legal; returns the finished hand's state."""
    state = HandState(hands[:], rules)
    qs_out = True
    while not state.finished:
        trick = state.trick
        n = len(trick)
        led = trick[0] // 13 if n else 0
        top_at = max(range(n), key=lambda at: trick[at] if trick[at] // 13 == led else -1,
                     default=0)
        points = sum(1 if 26 <= card <= 38 else 13 if card == 49 else 0 for card in trick)
        played = ~(state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3])
        card = pick(PlayoutTurn(state, led, trick[top_at] if n else 0, top_at, points, qs_out,
                                played))
        assert state.legal() >> card & 1, f"the policy chose an illegal card: {card}"
        if card == 49:
            qs_out = False
        state.apply(card)
    return state


def random_positions(seed: int, count: int) -> list[Game]:
    """Copies of seeded random games at moments where a card is to be played."""
    rng = random.Random(seed)
    out: list[Game] = []
    game = Game.new(seed)
    while len(out) < count:
        if game.phase is Phase.GAME_OVER:
            game = Game.new(rng.randrange(10**9))
        elif game.phase is Phase.PASS:
            for seat in range(4):
                game.choose_pass(seat, rng.sample(game.hand(seat), 3))
        else:
            if rng.random() < 0.15:
                out.append(game.copy())
            game.play(rng.choice(game.legal_plays()))
    return out


def view_to_play(game: Game) -> PlayerView:
    """The view of the seat to play."""
    seat = game.to_play
    assert seat is not None
    return game.view(seat)


def twin_games(seed: int, plays: int) -> tuple[Game, Game]:
    """Two games whose views for the seat to play are equal but whose hidden hands differ.

    Both games have the same deal for the seat to play and the same passes and plays; the
    other seats' unplayed, unpassed cards are swapped within suits between them (which
    keeps every earlier play legal and every shown void true).
    """
    rng = random.Random(seed)
    dealt = deal(seed, 1)
    game = Game.from_deal([cards_of_mask(m) for m in dealt])
    passes = [mask_of(rng.sample(game.hand(s), 3)) for s in range(4)]
    for seat in range(4):
        game.choose_pass(seat, cards_of_mask(passes[seat]))
    moves: list[Card] = []
    for _ in range(plays):
        card = rng.choice(game.legal_plays())
        moves.append(card)
        game.play(card)
    me = game.to_play
    assert me is not None
    others = [s for s in range(4) if s != me]
    passed_any = passes[0] | passes[1] | passes[2] | passes[3]
    twin = list(dealt)
    swaps = 0
    for suit in range(4):
        for a in others:
            for b in others:
                if a >= b:
                    continue
                free_a = mask_of(game.hand(a)) & SUIT_MASKS[suit] & ~passed_any & twin[a]
                free_b = mask_of(game.hand(b)) & SUIT_MASKS[suit] & ~passed_any & twin[b]
                if free_a and free_b:
                    ca = free_a & -free_a
                    cb = free_b & -free_b
                    twin[a] ^= ca | cb
                    twin[b] ^= ca | cb
                    swaps += 1
    assert swaps, "no swap possible: pick another seed"
    other = Game.from_deal([cards_of_mask(m) for m in twin])
    for seat in range(4):
        other.choose_pass(seat, cards_of_mask(passes[seat]))
    for card in moves:
        other.play(card)
    return game, other
