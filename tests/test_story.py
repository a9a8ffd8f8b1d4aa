"""A finished hand's story (hearts.story) agrees with the engine's own scoring."""

from __future__ import annotations

import pytest

from hearts import Card, Game, HandScored, Phase, Rules, TrickWon
from hearts.bots import make
from hearts.story import hand_story, trick_winner, tricks_of
from hearts.view import Trick


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def played_hands(seed: int, rules: Rules) -> list[tuple[list[tuple[int, Card]], HandScored,
                                                         list[TrickWon]]]:
    """Each hand of a game between easy computers: its plays, its score, its tricks."""
    game = Game.new(seed=seed, rules=rules)
    bots = [make("easy", s) for s in range(4)]
    out = []
    plays: list[tuple[int, Card]] = []
    begin = 0
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PASS:
            for seat in range(4):
                game.choose_pass(seat, bots[seat].choose_pass(game.view(seat)))
            continue
        if game.phase is Phase.MOON:
            chooser = game.moon_chooser
            assert chooser is not None
            game.choose_moon(chooser, bots[chooser].choose_moon(game.view(chooser)))
        else:
            player = game.to_play
            assert player is not None
            seat = player
            card = bots[seat].choose_play(game.view(seat))
            plays.append((seat, card))
            game.play(card)
        if len(plays) == 52 and game.phase is not Phase.MOON:
            events = game.events[begin:]
            scored = next(e for e in events if isinstance(e, HandScored))
            out.append((plays, scored, [e for e in events if isinstance(e, TrickWon)]))
            plays = []
            begin = len(game.events)
    return out


def test_the_highest_card_of_the_suit_led_takes_the_trick() -> None:
    assert trick_winner(1, cards("5C KC AH 9C")) == 2  # the A♥ doesn't follow
    assert trick_winner(3, cards("2D 3D 4D 5D")) == 2
    with pytest.raises(ValueError, match="four cards"):
        trick_winner(0, cards("2D 3D"))


def test_a_card_out_of_turn_is_refused() -> None:
    with pytest.raises(ValueError, match="out of turn"):
        tricks_of([(0, Card.parse("2C")), (2, Card.parse("3C"))])


def test_an_unfinished_trick_is_left_out() -> None:
    plays = list(zip((0, 1, 2, 3, 2), cards("2C 3C 4C 5C 6D"), strict=True))
    assert [t.winner for t in tricks_of(plays)] == [3]


@pytest.mark.parametrize("rules", [Rules(), Rules(jd_bonus=True)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_tricks_and_the_story_agree_with_the_engine(seed: int, rules: Rules) -> None:
    for plays, scored, won in played_hands(seed, rules):
        tricks = tricks_of(plays)
        assert [(t.leader, t.cards, t.winner) for t in tricks] == \
            [(w.leader, w.cards, w.seat) for w in won]
        story = hand_story(tricks, rules)
        assert sum(story.hearts) == 13 and sum(story.tricks) == 13
        assert story.queen is not None
        taken = [story.hearts[s] + (13 if story.queen == s else 0) for s in range(4)]
        assert taken == list(scored.points_taken)  # the engine's points before the moon
        assert story.moon == scored.moon_shooter
        assert (story.jack is not None) == rules.jd_bonus


def test_a_moon_and_a_moon_stopped() -> None:
    rules = Rules()
    # West takes every trick: all hearts and the Q♠.
    plays = []
    deck = [Card(suit, rank) for suit in range(4) for rank in range(2, 15)]
    for i in range(13):
        trick = [deck[i], deck[13 + i], deck[26 + i], deck[39 + i]]  # one card of each suit
        plays.append(trick)
    assert tricks_of([]) == ()
    every = tuple(Trick(1, tuple(t), 1) for t in plays)
    story = hand_story(every, rules)
    assert story.moon == 1 and story.stopped is None and story.hearts == (0, 13, 0, 0)
    # North takes one trick with a single heart in it: West's moon is stopped.
    stopped = (Trick(1, tuple(plays[0]), 2), *every[1:])
    story = hand_story(stopped, rules)
    assert story.moon is None and story.stopped == (1, 2) and story.hearts == (0, 12, 1, 0)
    assert hand_story(every, Rules(shoot_the_moon=False)).moon is None
