"""Helpers for scripted deals written in card notation."""

from __future__ import annotations

from collections.abc import Sequence

from hearts import Card, Game, Phase, parse_cards
from hearts.bots import make
from hearts.cards import ALL_CARDS

SEATS = {"S": 0, "W": 1, "N": 2, "E": 3}

NO_PASS_HISTORY = [(13, 13, 0, 0), (0, 13, 13, 0), (0, 0, 13, 13)]
"""Three finished hands: the next hand is the 4th, which has no passing."""


def complete_deal(partial: dict[str, str], filler: str = "") -> list[list[Card]]:
    """Four 13-card hands: the cards named per seat, topped up with the other cards.

    A seat written with a leading ``=`` is complete as given. The other seats are
    topped up, South first, with the cards of ``filler`` and then the rest of the deck
    in order. Name every card a test relies on; the filler only completes the deal.
    """
    hands: list[list[Card]] = [[], [], [], []]
    closed = set()
    used: set[Card] = set()
    for letter, text in partial.items():
        seat = SEATS[letter]
        if text.startswith("="):
            closed.add(seat)
        cards = parse_cards(text.lstrip("="))
        assert not used & set(cards), f"a card is named twice: {text}"
        used |= set(cards)
        hands[seat].extend(cards)
    rest = [c for c in parse_cards(filler) if c not in used]
    rest += [c for c in ALL_CARDS if c not in used and c not in rest]
    for card in rest:
        seat = next(s for s in range(4) if s not in closed and len(hands[s]) < 13)
        hands[seat].append(card)
    assert all(len(h) == 13 for h in hands), [len(h) for h in hands]
    return [sorted(h) for h in hands]


def game_from(partial: dict[str, str], *, history: Sequence[Sequence[int]] = (),
              filler: str = "") -> Game:
    """A game whose current hand is dealt from ``partial`` (see ``complete_deal``)."""
    return Game.from_deal(complete_deal(partial, filler), history=history)


def play_all(game: Game, cards: str) -> None:
    """Play the cards in order, each by whoever is to play."""
    for card in parse_cards(cards):
        game.play(card)


def finished_game(seed: int = 11) -> Game:
    """A whole game between easy computer players, played to its end."""
    game = Game.new(seed=seed)
    bots = [make("easy", s) for s in range(4)]
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PASS:
            for seat in range(4):
                game.choose_pass(seat, bots[seat].choose_pass(game.view(seat)))
        else:
            player = game.to_play
            assert player is not None
            seat = player
            game.play(bots[seat].choose_play(game.view(seat)))
    return game
