"""Invariants over many seeded random hands, checked by a naive second implementation."""

import random

from hearts import Card, Game, Phase, Suit
from hearts.events import CardPlayed, HandDealt, HandScored, TrickWon

HANDS = 10_000
QS = Card.parse("QS")
TWO_CLUBS = Card.parse("2C")


def naive_legal(hand: list[Card], trick: list[Card], first_trick: bool, broken: bool) -> set[Card]:
    """The rules of docs/rules.md written as plainly as possible."""
    if not trick:
        if first_trick:
            return {TWO_CLUBS}
        non_hearts = {c for c in hand if c.suit != Suit.HEARTS}
        return set(hand) if broken or not non_hearts else non_hearts
    follow = {c for c in hand if c.suit == trick[0].suit}
    if follow:
        return follow
    if first_trick:
        safe = {c for c in hand if c.suit != Suit.HEARTS and c != QS}
        if safe:
            return safe
    return set(hand)


def naive_winner(leader: int, cards: tuple[Card, ...]) -> int:
    led = cards[0].suit
    best = max((c for c in cards if c.suit == led), key=lambda c: c.rank)
    return (leader + cards.index(best)) % 4


def test_ten_thousand_random_hands_keep_every_invariant() -> None:
    rng = random.Random(2026)
    hands_seen = moons = 0
    seed = 0
    while hands_seen < HANDS:
        seed += 1
        game = Game.new(seed=seed)
        checked_events = 0
        while game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.PASS:
                dealt = [game.hand(s) for s in range(4)]
                assert len({c for h in dealt for c in h}) == 52
                assert all(len(h) == 13 for h in dealt)
                for seat in rng.sample(range(4), 4):
                    game.choose_pass(seat, rng.sample(game.hand(seat), 3))
                continue
            player = game.to_play
            assert player is not None
            seat = player
            hand = game.hand(seat)
            trick = game.current_trick
            trick_cards = list(trick.cards) if trick else []
            legal = set(game.legal_plays())
            assert legal == naive_legal(hand, trick_cards, not game.tricks,
                                        game.hearts_broken), game.to_text()
            for card in hand:
                assert (game.why_illegal(card) is None) == (card in legal)
            game.play(rng.choice(sorted(legal)))
        for event in game.events[checked_events:]:
            if isinstance(event, TrickWon):
                assert event.seat == naive_winner(event.leader, event.cards)
                assert event.points == sum(c.points for c in event.cards)
            elif isinstance(event, HandScored):
                hands_seen += 1
                assert sum(event.points_taken) == 26
                if event.moon_shooter is not None:
                    moons += 1
                    assert sorted(event.scores) == [0, 26, 26, 26]
                    assert event.points_taken[event.moon_shooter] == 26
                else:
                    assert event.scores == event.points_taken
        plays = [e for e in game.events if isinstance(e, CardPlayed)]
        deals = [e for e in game.events if isinstance(e, HandDealt)]
        assert len(plays) == 52 * len(deals)
        assert sum(map(sum, game.hand_history)) == sum(game.scores)
    assert hands_seen >= HANDS
