"""Differential test against OpenSpiel's C++ Hearts (PyPI ``open-spiel``, game ``hearts``).

Both engines are driven with the same deal, the same passes and the same plays. At every
decision the sets of legal moves must be identical (each pass card as OpenSpiel offers it
card by card, then every play), so must whose turn it is and whether hearts are broken,
and at the end of each hand the four hand scores.

One OpenSpiel game is one hand. Mapping between the engines:

- Seats: OpenSpiel's players are 0 North, 1 East, 2 South, 3 West, clockwise like ours
  (0 South, 1 West, 2 North, 3 East): our seat ``s`` is OpenSpiel's player ``(s + 2) % 4``
  (South is South). The rules are symmetric under rotation, so only the sense matters: a
  mirrored map (counter-clockwise) fails this test at once.
  In both, play goes to player + 1 and a pass goes ``+ direction``, so "left" is the same
  neighbour (South's left is West; OpenSpiel's North passes left to East).
- Pass directions: OpenSpiel's first chance action is the direction, 0 no pass, 1 left,
  2 across, 3 right: the values of our ``PassDirection``. We set it from our cycle.
- Cards: OpenSpiel's action is ``rank * 4 + suit`` (rank 0 = the 2, suits C D H S); ours
  is ``suit * 13 + rank``.
- Deal: the k-th chance card goes to OpenSpiel player ``k % 4``.
- Scores: ``state.points(p)`` is the hand score with the moon applied (shooter 0, others
  26) and ``returns()`` is ``26 - points``.
- Rules: OpenSpiel's defaults except ``qs_breaks_hearts=False``; every parameter is set
  explicitly below, matching ``Rules()``. The house-rules run draws random combinations
  of the rules both engines have: ``no_points_on_first_trick`` / ``no_pts_on_first_trick``,
  ``must_break_hearts``, ``qs_breaks_hearts``, ``jd_bonus`` (the J♦ −10, after the moon)
  and our ``pass_cycle`` (it sets OpenSpiel's direction). OpenSpiel scores a moon only as
  "others +26"; under our "shooter −26" (or the shooter's choice of it, drawn at random)
  every seat's score is OpenSpiel's minus 26. OpenSpiel's ``pass_cards=False``,
  ``can_lead_any_club``, ``avoid_all_tricks_bonus`` and ``can_lead_hearts_instead_of_qs``
  are rules we don't have, so they stay off.

Random play alone almost never reaches some corners (a moon, a hand of only hearts and
the Q♠ on the first trick, leading from a hand of only hearts), so part of the hands use
stacked deals and a policy in which one seat grabs every point and the others hand them
over. The test counts the corners it reached and fails if one was never reached.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from hearts import Card, Game, PassDirection, Phase, Rules
from hearts.cards import ALL_CARDS
from hearts.rules import JACK_OF_DIAMONDS, MoonScoring, PassCycle

pyspiel = pytest.importorskip("pyspiel")

RULES = Rules()


def openspiel_params(rules: Rules) -> dict[str, bool]:
    """OpenSpiel's parameters for our ``rules`` (every one set explicitly)."""
    return {
        "pass_cards": True,
        "no_pts_on_first_trick": rules.no_points_on_first_trick,
        "can_lead_any_club": False,
        "jd_bonus": rules.jd_bonus,
        "avoid_all_tricks_bonus": False,
        "must_break_hearts": rules.must_break_hearts,
        "qs_breaks_hearts": rules.qs_breaks_hearts,
        "can_lead_hearts_instead_of_qs": False,
    }


OPENSPIEL_PARAMS = openspiel_params(RULES)


def random_rules(rng: random.Random) -> Rules:
    """A random combination of the house rules OpenSpiel can check (end score: 50 to 150)."""
    return Rules(end_score=rng.choice((50, 100, 150)),
                 qs_breaks_hearts=rng.random() < 0.5,
                 no_points_on_first_trick=rng.random() < 0.5,
                 must_break_hearts=rng.random() < 0.5,
                 jd_bonus=rng.random() < 0.5,
                 moon_scoring=rng.choice(list(MoonScoring)),
                 pass_cycle=rng.choice(list(PassCycle)))

OS_OF_SEAT = (2, 3, 0, 1)  # our seat -> OpenSpiel player (and back: the map is its own inverse)
CARD_OF_ACTION = tuple(ALL_CARDS[(a % 4) * 13 + a // 4] for a in range(52))
ACTION_OF_CARD = {card: a for a, card in enumerate(CARD_OF_ACTION)}
QS = Card.parse("QS")
AC = Card.parse("AC")
HEARTS = [c for c in ALL_CARDS if c.suit == 2]
POINT_CARDS = [*HEARTS, QS]

# Scores of earlier hands for Game.from_deal: k rows make the next hand the (k+1)-th,
# so its pass direction is left, right, across or none; nobody gets near 100.
HISTORIES: tuple[list[tuple[int, int, int, int]], ...] = (
    [], [(7, 6, 7, 6)], [(7, 6, 7, 6), (6, 7, 6, 7)],
    [(7, 6, 7, 6), (6, 7, 6, 7), (13, 0, 13, 0)])


def history_for(rows: list[tuple[int, int, int, int]], rules: Rules
                ) -> list[tuple[int, int, int, int]]:
    """``rows`` as scores possible under ``rules``: with the J♦, South took it each time."""
    if not rules.jd_bonus:
        return rows
    return [(a - 10, b, c, d) for a, b, c, d in rows]


@dataclass
class Tally:
    """What a run compared and which corners of the rules it reached."""

    hands: int = 0
    decisions: int = 0
    pass_decisions: int = 0
    play_decisions: int = 0
    corners: Counter[str] = field(default_factory=Counter)

    def line(self) -> str:
        corners = ", ".join(f"{k} {v}" for k, v in sorted(self.corners.items()))
        return (f"OpenSpiel differential: {self.hands} hands, {self.decisions} decisions "
                f"compared ({self.pass_decisions} pass, {self.play_decisions} play); {corners}")


# --- policies: (game, seat, rng, shooter) -> card -----------------------------------------

def random_play(game: Game, seat: int, rng: random.Random, shooter: int | None) -> Card:
    return rng.choice(game.legal_plays())


def moon_play(game: Game, seat: int, rng: random.Random, shooter: int | None) -> Card:
    """The shooter plays its highest card; the others duck low and throw it their points."""
    legal = game.legal_plays()
    if seat == shooter:
        return max(legal, key=lambda c: (c.rank, c.suit == 2))
    trick = game.current_trick
    if trick is not None and legal[0].suit != trick.cards[0].suit:  # void: discard
        points = [c for c in legal if c.points]
        if points and trick.winner is None and _winning_seat(trick) == shooter:
            return max(points, key=lambda c: c.points)
        return max(legal, key=lambda c: (c.points == 0, c.rank))
    if rng.random() < 0.15:
        return rng.choice(legal)
    return min(legal, key=lambda c: (c.points, c.rank))


def _winning_seat(trick: Any) -> int:
    led = trick.cards[0].suit
    best = max((c for c in trick.cards if c.suit == led), key=lambda c: c.rank)
    return int(trick.seat_of(trick.cards.index(best)))


def random_pass(game: Game, seat: int, rng: random.Random, shooter: int | None) -> list[Card]:
    return rng.sample(game.hand(seat), 3)


def moon_pass(game: Game, seat: int, rng: random.Random, shooter: int | None) -> list[Card]:
    """The shooter passes its lowest cards; the others pass at random."""
    hand = game.hand(seat)
    if seat == shooter:
        return sorted(hand, key=lambda c: (c.rank, c.suit == 2))[:3]
    return rng.sample(hand, 3)


Policy = Callable[[Game, int, random.Random, int | None], Card]
PassPolicy = Callable[[Game, int, random.Random, int | None], list[Card]]


# --- stacked deals -------------------------------------------------------------------------

def _fill(fixed: dict[int, list[Card]], rng: random.Random) -> list[list[Card]]:
    used = {c for cards in fixed.values() for c in cards}
    rest = [c for c in ALL_CARDS if c not in used]
    rng.shuffle(rest)
    hands = []
    for seat in range(4):
        cards = list(fixed.get(seat, []))
        need = 13 - len(cards)
        cards += rest[:need]
        del rest[:need]
        hands.append(cards)
    return hands


def strong_deal(seat: int, rng: random.Random) -> list[list[Card]]:
    """``seat`` gets mostly high cards and many hearts: a hand that can shoot the moon."""
    pool = list(ALL_CARDS)
    weights = [(c.rank - 1) ** 3 * (3 if c.suit == 2 else 1) for c in pool]
    chosen: list[Card] = []
    while len(chosen) < 13:
        card = rng.choices(pool, weights)[0]
        if card not in chosen:
            chosen.append(card)
    return _fill({seat: chosen}, rng)


def only_points_deal(seat: int, rng: random.Random) -> list[list[Card]]:
    """``seat`` gets 13 of the 14 point cards: void in clubs with nothing but points."""
    return _fill({seat: rng.sample(POINT_CARDS, 13)}, rng)


def ace_and_hearts_deal(seat: int, rng: random.Random) -> list[list[Card]]:
    """``seat`` gets the A♣ and 12 hearts: it wins the first trick, then holds only hearts."""
    return _fill({seat: [AC, *rng.sample(HEARTS, 12)]}, rng)


def no_clubs_deal(seat: int, rng: random.Random) -> list[list[Card]]:
    """``seat`` gets no clubs and some points: the first-trick restriction applies."""
    non_clubs = [c for c in ALL_CARDS if c.suit != 0]
    return _fill({seat: rng.sample(non_clubs, 13)}, rng)


STACKED_DEALS = (strong_deal, only_points_deal, ace_and_hearts_deal, no_clubs_deal)


# --- the differential driver ---------------------------------------------------------------

def _cards(actions: list[int]) -> list[Card]:
    return sorted(CARD_OF_ACTION[a] for a in actions)


def _note_corners(game: Game, seat: int, legal: list[Card], tally: Tally) -> None:
    """Count the rule corners reached at this decision (from our engine's state)."""
    hand = game.hand(seat)
    suits = {c.suit for c in hand}
    trick = game.current_trick
    first = not game.tricks
    rules = game.rules
    mixed = 2 in suits and len(suits) > 1  # hearts and something else
    if trick is None:
        if first:
            return
        no_heart_yet = not any(c.suit == 2 for t in game.tricks for c in t.cards)
        # The corners where a house rule changes the legal set (each must be reached):
        if mixed and no_heart_yet and not rules.must_break_hearts:
            tally.corners["heart_lead_allowed_unbroken"] += 1
        if (mixed and no_heart_yet and rules.qs_breaks_hearts and rules.must_break_hearts
                and any(QS in t.cards for t in game.tricks)):
            tally.corners["heart_lead_after_the_qs_broke_them"] += 1
        if not game.hearts_broken:
            if suits == {2}:
                tally.corners["lead_from_only_hearts"] += 1
            elif 2 in suits and any(QS in t.cards for t in game.tricks):
                tally.corners["qs_played_hearts_unbroken"] += 1
        elif 2 in suits and len(suits) > 1 and not any(t.cards[0].suit == 2
                                                       for t in game.tricks):
            tally.corners["heart_lead_after_discard"] += 1
        return
    led = trick.cards[0].suit
    if first and led not in suits:
        if not rules.no_points_on_first_trick and any(c.points for c in hand) \
                and not all(c.points for c in hand):
            tally.corners["first_trick_points_allowed"] += 1
        if all(c.points for c in hand):
            tally.corners["first_trick_only_points"] += 1
        elif any(c.points for c in hand):
            tally.corners["first_trick_points_held_back"] += 1


def play_hand(game: Game, game_os: Any, rng: random.Random, tally: Tally, *,
              play_policy: Policy = random_play, pass_policy: PassPolicy = random_pass,
              shooter: int | None = None) -> tuple[int, int, int, int]:
    """Play the hand ``game`` is at in both engines; return our hand scores."""
    hand_number = game.hand_number
    direction = game.pass_direction
    state = game_os.new_initial_state()
    state.apply_action(int(direction))  # the pass direction is the first chance outcome
    dealt = [game.hand(seat) for seat in range(4)]
    for hand in dealt:
        rng.shuffle(hand)
    for k in range(52):
        state.apply_action(ACTION_OF_CARD[dealt[OS_OF_SEAT[k % 4]][k // 4]])

    if direction is PassDirection.NONE:
        assert game.phase is Phase.PLAY
    else:
        assert game.phase is Phase.PASS
        chosen: dict[int, list[Card]] = {}
        for player in range(4):  # OpenSpiel: North, East, South, West, one card at a time
            seat = OS_OF_SEAT[player]
            cards = pass_policy(game, seat, rng, shooter)
            remaining = game.hand(seat)
            for card in cards:
                assert state.current_player() == player
                assert _cards(state.legal_actions()) == remaining, game.to_text()
                state.apply_action(ACTION_OF_CARD[card])
                remaining.remove(card)
                tally.pass_decisions += 1
            chosen[seat] = cards
        for seat in rng.sample(range(4), 4):  # ours: simultaneous, in any order
            assert game.phase is Phase.PASS
            game.choose_pass(seat, chosen[seat])
        tally.corners[f"pass_{direction.name.lower()}"] += 1
        if hand_number % 4 == 0:
            assert game.rules.pass_cycle is PassCycle.NO_HOLD
            tally.corners["fourth_hand_passes"] += 1

    while not state.is_terminal():
        assert game.phase is Phase.PLAY and game.hand_number == hand_number
        mover = game.to_play
        assert mover is not None
        seat = mover
        assert state.current_player() == OS_OF_SEAT[seat], game.to_text()
        # OpenSpiel starts a hand "broken" when hearts needn't be broken; ours means "a
        # heart (or the Q♠ if it counts) was played", so they agree only when it matters.
        if game.rules.must_break_hearts:
            assert state.hearts_broken() == game.hearts_broken, game.to_text()
        legal = game.legal_plays()
        assert _cards(state.legal_actions()) == legal, game.to_text()
        if len(legal) < len(game.hand(seat)):
            assert all((game.why_illegal(c) is None) == (c in legal) for c in game.hand(seat))
        _note_corners(game, seat, legal, tally)
        card = play_policy(game, seat, rng, shooter)
        game.play(card)
        state.apply_action(ACTION_OF_CARD[card])
        tally.play_decisions += 1
    rules = game.rules
    moon_scoring = rules.moon_scoring
    if game.phase is Phase.MOON:  # the shooter's choice: a random one
        assert rules.moon_choice and game.moon_chooser is not None
        moon_scoring = rng.choice((MoonScoring.OTHERS_PLUS_26, MoonScoring.SHOOTER_MINUS_26))
        game.choose_moon(game.moon_chooser, moon_scoring)
        tally.corners[f"moon_chosen_{moon_scoring.value}"] += 1
    assert len(game.hand_history) >= hand_number, "our hand did not end with OpenSpiel's"

    scores = game.hand_history[hand_number - 1]
    theirs = tuple(int(state.points(OS_OF_SEAT[seat])) for seat in range(4))
    returns = state.returns()
    assert all(26 - returns[OS_OF_SEAT[seat]] == theirs[seat] for seat in range(4))
    moon = sum(theirs) > 26  # 26 points a hand (16 with the J♦); a moon adds 52
    expected = theirs
    if moon and moon_scoring is MoonScoring.SHOOTER_MINUS_26:
        expected = tuple(v - 26 for v in theirs)
    assert scores == expected, (scores, theirs, rules, game.to_text())
    tally.hands += 1
    if rules != RULES:
        tally.corners["house_rules"] += 1
    if moon:
        tally.corners["moon"] += 1
        if rules.jd_bonus:
            tally.corners["moon_with_jd"] += 1
    elif max(scores) >= 20:
        tally.corners["near_moon"] += 1
    if rules.jd_bonus:
        jd_seat = next(t.winner for t in game_tricks(game, hand_number)
                       if JACK_OF_DIAMONDS in t.cards)
        tally.corners["jd_taken"] += 1
        assert jd_seat is not None
    a, b, c, d = scores
    return a, b, c, d


def game_tricks(game: Game, hand_number: int) -> list[Any]:
    """The tricks of hand ``hand_number`` from the game's events (the hand is scored)."""
    from hearts import HandDealt, TrickWon

    tricks = []
    current = 0
    for event in game.events:
        if isinstance(event, HandDealt):
            current = event.hand_number
        elif isinstance(event, TrickWon) and current == hand_number:
            tricks.append(event)
    tricks = tricks[-13:]
    assert len(tricks) == 13
    return [_Won(t.cards, t.seat) for t in tricks]


@dataclass(frozen=True)
class _Won:
    cards: tuple[Card, ...]
    winner: int


def run_differential(hands: int, seed: int, house_rules: bool = False) -> Tally:
    """Compare ``hands`` hands: matches played to the end, plus stacked deals.

    ``house_rules``: every match and stacked deal draws its own ``random_rules``.
    """
    rng = random.Random(seed)
    loaded: dict[Rules, Any] = {}

    def openspiel_for(rules: Rules) -> Any:
        if rules not in loaded:
            loaded[rules] = pyspiel.load_game("hearts", openspiel_params(rules))
        return loaded[rules]

    tally = Tally()
    match: Game | None = None
    while tally.hands < hands:
        roll = rng.random()
        if roll < 0.55:  # the next hand of a real match (deal, cycle, end of game)
            if match is None or match.phase is Phase.GAME_OVER:
                rules = random_rules(rng) if house_rules else RULES
                match = Game.new(seed=rng.randrange(2**53), rules=rules)
            game_os = openspiel_for(match.rules)
            shooter = rng.randrange(4) if roll < 0.1 else None
            play_hand(match, game_os, rng, tally, shooter=shooter,
                      play_policy=moon_play if shooter is not None else random_play,
                      pass_policy=moon_pass if shooter is not None else random_pass)
            if match.phase is Phase.GAME_OVER:
                tally.corners["games_finished"] += 1
            continue
        builder = rng.choice(STACKED_DEALS)
        seat = rng.randrange(4)
        rules = random_rules(rng) if house_rules else RULES
        game_os = openspiel_for(rules)
        game = Game.from_deal(builder(seat, rng),
                              history=history_for(list(rng.choice(HISTORIES)), rules),
                              seed=rng.randrange(2**53), rules=rules)
        if builder is strong_deal or rng.random() < 0.2:
            play_hand(game, game_os, rng, tally, shooter=seat, play_policy=moon_play,
                      pass_policy=moon_pass)
        else:
            play_hand(game, game_os, rng, tally)
    tally.decisions = tally.pass_decisions + tally.play_decisions
    return tally


REQUIRED_CORNERS = (
    "moon", "near_moon", "lead_from_only_hearts", "qs_played_hearts_unbroken",
    "heart_lead_after_discard", "first_trick_only_points", "first_trick_points_held_back",
    "pass_left", "pass_right", "pass_across", "games_finished",
)


HOUSE_RULES_CORNERS = (
    *REQUIRED_CORNERS, "house_rules", "jd_taken", "moon_with_jd", "fourth_hand_passes",
    "moon_chosen_others_plus_26", "moon_chosen_shooter_minus_26",
    "heart_lead_allowed_unbroken", "heart_lead_after_the_qs_broke_them",
    "first_trick_points_allowed",
)


def _check(tally: Tally, hands: int, capsys: pytest.CaptureFixture[str],
           required: tuple[str, ...] = REQUIRED_CORNERS) -> None:
    with capsys.disabled():
        print("\n" + tally.line())
    assert tally.hands == hands
    missing = [name for name in required if tally.corners[name] == 0]
    assert not missing, f"the run never reached {missing}: {tally.line()}"
    assert tally.corners["moon"] >= hands // 100, tally.line()


def test_mapping_of_cards_and_seats() -> None:
    """OpenSpiel's own names for its actions agree with our card notation."""
    state = pyspiel.load_game("hearts", OPENSPIEL_PARAMS).new_initial_state()
    state.apply_action(int(PassDirection.LEFT))
    for action in range(52):
        assert state.action_to_string(0, action) == CARD_OF_ACTION[action].notation
    assert sorted(ACTION_OF_CARD.values()) == list(range(52))
    assert all(OS_OF_SEAT[OS_OF_SEAT[s]] == s for s in range(4))


def test_same_legal_moves_and_scores_as_openspiel(capsys: pytest.CaptureFixture[str]) -> None:
    """2,000 hands: identical legal passes and plays at every decision, identical scores."""
    _check(run_differential(2_000, seed=20261129), 2_000, capsys)


@pytest.mark.slow
def test_same_as_openspiel_50000_hands(capsys: pytest.CaptureFixture[str]) -> None:
    """The long run: 50,000 hands."""
    _check(run_differential(50_000, seed=50_000), 50_000, capsys)


def test_same_as_openspiel_under_random_house_rules(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    """2,000 hands, each match and stacked deal under its own random combination of the
    rules both engines have: identical legal moves and scores."""
    _check(run_differential(2_000, seed=20261201, house_rules=True), 2_000, capsys,
           HOUSE_RULES_CORNERS)


@pytest.mark.slow
def test_same_as_openspiel_under_random_house_rules_30000_hands(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The long run of the house rules: 30,000 hands."""
    _check(run_differential(30_000, seed=30_000, house_rules=True), 30_000, capsys,
           HOUSE_RULES_CORNERS)


def test_our_rules_map_to_openspiels_parameters() -> None:
    """Each shared rule is one OpenSpiel parameter, and OpenSpiel knows all of them."""
    rules = Rules(no_points_on_first_trick=False, must_break_hearts=False,
                  qs_breaks_hearts=True, jd_bonus=True)
    params = openspiel_params(rules)
    assert params["no_pts_on_first_trick"] is False and params["must_break_hearts"] is False
    assert params["qs_breaks_hearts"] is True and params["jd_bonus"] is True
    game = pyspiel.load_game("hearts", params)
    assert set(game.get_parameters()) == set(params)


def test_bench_runs_and_prints_the_ratios(capsys: pytest.CaptureFixture[str]) -> None:
    """``python tools/bench.py`` in miniature: every line is printed."""
    from tools.bench import main

    assert main(["--hands", "20", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "ours (Game" in out and "fast path" in out
    assert out.count("ratio ours/OpenSpiel") == 3
