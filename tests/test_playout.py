"""hearts.playout is never wrong: checked against playing out every line of play, from
positions with up to four cards in each hand."""

from __future__ import annotations

import random

import pytest

from hearts import Card, Game, Phase, Rules
from hearts.bots import make
from hearts.cards import indices_of_mask
from hearts.handstate import HandState
from hearts.playout import Outcome, certain_outcome, jd_taker_of, state_of

JD = Card.parse("JD").index


def every_outcome(state: HandState, jd: int | None, seen: set[Outcome]) -> None:
    """Add to ``seen`` the outcome of every legal way of playing ``state`` to the end."""
    if state.finished:
        seen.add(((state.points[0], state.points[1], state.points[2], state.points[3]), jd))
        return
    for index in indices_of_mask(state.legal()):
        after = state.copy()
        in_trick = [*state.trick, index]
        winner = after.apply(index)
        taker = winner if winner >= 0 and state.rules.jd_bonus and JD in in_trick else jd
        every_outcome(after, taker, seen)
        if len(seen) > 1:
            return  # not decided: enough said


def positions(seed: int, rules: Rules, cards_left: int) -> list[Game]:
    """Each position of one hand from where each seat holds ``cards_left`` cards on."""
    game = Game.new(seed=seed, rules=rules)
    bots = [make("easy", s) for s in range(4)]
    for seat in range(4):
        game.choose_pass(seat, bots[seat].choose_pass(game.view(seat)))
    rng = random.Random(seed)
    out = []
    while game.phase is Phase.PLAY and game.hand_number == 1:
        if len(game.plays) >= (13 - cards_left) * 4:
            out.append(Game.from_json(game.to_json()))
        game.play(rng.choice(game.legal_plays()))
    return out


def check_against_every_line(rules: Rules, seeds: range) -> tuple[int, int, int]:
    """(positions, decided ones, ones certain_outcome answered) over ``seeds``' hands."""
    count = decided = said = 0
    for seed in seeds:
        for game in positions(seed, rules, 4):
            state = state_of(game)
            jd = jd_taker_of(game)
            seen: set[Outcome] = set()
            every_outcome(state.copy(), jd, seen)
            told = certain_outcome(state.copy(), jd)
            if told is not None:
                said += 1
                assert seen == {told}, game.to_text()
            decided += len(seen) == 1
            count += 1
    return count, decided, said


@pytest.mark.parametrize("rules", [Rules(), Rules(jd_bonus=True)], ids=["standard", "jd"])
def test_a_certain_outcome_is_the_only_outcome(rules: Rules) -> None:
    count, decided, said = check_against_every_line(rules, range(12))
    assert count > 150 and said > 0.4 * decided  # and it is sure in most decided positions


@pytest.mark.slow
@pytest.mark.parametrize("rules", [Rules(), Rules(jd_bonus=True)], ids=["standard", "jd"])
def test_a_certain_outcome_is_the_only_outcome_over_many_hands(rules: Rules) -> None:
    count, decided, said = check_against_every_line(rules, range(12, 300))
    print(f"{count} positions, {decided} decided, {said} told certain")
    assert said > 0.4 * decided


def test_nothing_left_to_take_is_certain() -> None:
    state = HandState([0, 0, 0, 0], Rules())
    hands = ["AC 2D", "KC 3D", "QC 4D", "JC 5D"]
    state.hands = [sum(Card.parse(c).mask for c in h.split()) for h in hands]
    state.tricks_done = 11
    state.points = [3, 13, 10, 0]
    state.leader = state.to_play = 2
    assert certain_outcome(state) == ((3, 13, 10, 0), None)
    state.hands[3] ^= Card.parse("5D").mask | Card.parse("5H").mask  # a heart is out
    assert certain_outcome(state) is None
    state.hands[3] ^= Card.parse("5H").mask | Card.parse("JD").mask
    assert certain_outcome(state) is not None  # the J♦ is nothing in the standard rules
    state.rules = Rules(jd_bonus=True)
    assert certain_outcome(state) is None


def test_the_leader_holding_every_top_card_takes_the_rest() -> None:
    state = HandState([0, 0, 0, 0], Rules())
    hands = ["AH KH AS", "2H 3S 4S", "3H 5S 6S", "4H 7S 8S"]
    state.hands = [sum(Card.parse(c).mask for c in h.split()) for h in hands]
    state.tricks_done = 10
    state.broken = True
    state.points = [0, 13, 0, 0]  # West has the Q♠ already
    state.leader = state.to_play = 0
    assert certain_outcome(state) == ((5, 13, 0, 0), None)
    state.leader = state.to_play = 1  # West leads: anyone may win a spade trick
    assert certain_outcome(state) is None
