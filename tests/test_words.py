"""The table's sentences (web/words.py) and the model's decisions (web/table/model.py)."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

from hearts import Card, Game, Phase
from tests.scripted import finished_game
from web import options, told, words
from web.formats import Stats
from web.table.model import PageState, SeatSnapshot, build, position


def test_names_are_joined_like_a_sentence() -> None:
    assert words.join([]) == ""
    assert words.join(["West"]) == "West"
    assert words.join(["West", "North"]) == "West and North"
    assert words.join(["West", "North", "East"]) == "West, North and East"
    assert words.cards_text([Card.parse("2H"), Card.parse("QS")]) == \
        "the 2 of hearts and the Queen of spades"


def test_seats_are_named_from_the_viewers_side() -> None:
    assert [position(seat, 2) for seat in range(4)] == ["north", "east", "south", "west"]
    assert words.seat_name(2, 2) == "You"
    kinds = ("host", "friend", "friend", "computer")
    # another person without a name: never just a place, which is the solo table's "you"
    assert words.seat_name(0, 2, kinds) == "South (host)"
    assert words.seat_name(1, 2, kinds) == "West (player)"
    assert words.seat_name(3, 0, kinds) == "East (computer)"
    names = ("Ana", "", "Bo", "")
    assert words.seat_name(0, 2, kinds, names) == "Ana"
    assert words.seat_name(1, 2, kinds, names) == "West (player)"  # no name chosen
    assert words.seat_name(2, 2, kinds, names) == "You"
    assert words.pass_prompt(Game.new(seed=1).view(2)) == "Pass 3 cards to the left ← East."


def test_the_cards_on_the_table_are_read_as_one_sentence() -> None:
    game = next(g for g in map(Game.new, range(20)) if g.hand(0)[0] != Card.parse("2C"))
    for seat in range(4):
        game.choose_pass(seat, game.hand(seat)[1:4])  # the 2 of clubs stays where it is
    while game.to_play != 0:
        game.play(game.legal_plays()[0])
    game.play(game.legal_plays()[0])
    text = words.trick_text(game.view(0))
    assert text.startswith("On the table: ") and ", you played the " in text, text
    assert " You " not in text


def test_events_are_told_from_each_seats_side() -> None:
    played = told.Played(1, Card.parse("QS"))
    assert words.told_text(played, 0) == "West played the Queen of spades."
    assert words.told_text(played, 1) == "You played the Queen of spades."
    trick = told.TookTrick(1, 1)
    assert words.told_text(trick, 1) == "You take the trick (1 point)."
    assert words.told_text(trick, 0) == "West takes the trick (1 point)."
    assert words.told_text(told.TookTrick(1, 0), 0) == "West takes the trick."
    assert words.told_text(told.HandOver(2, (0, 26, 26, 26)), 0) == \
        "Hand 2 is over. Points this hand: You 0, West 26, North 26, East 26."
    assert words.told_text(told.GameWon(0), 0) == "Game over. You win."
    assert words.told_text(told.GameWon(0), 3) == "Game over. South wins."
    assert words.told_text(told.Moon(2), 0, ("", "", "Ada", "")) == "Ada shot the moon!"
    assert words.told_text(told.Chose(2), 0) == ""
    assert words.told_text(told.Exchanged(), 0) == ""


def test_the_hand_is_dimmed_exactly_where_the_engine_refuses() -> None:
    rng = random.Random(4)
    for seed in range(6):
        game = Game.new(seed=seed)
        while game.phase is not Phase.GAME_OVER and game.hand_number < 2:
            if game.phase is Phase.PASS:
                for seat in range(4):
                    game.choose_pass(seat, rng.sample(game.hand(seat), 3))
                continue
            for seat in range(4):
                view = game.view(seat)
                snap = SeatSnapshot(view=view, stage="play", may_play=view.my_turn)
                model = build(snap, PageState(ready=True))
                dimmed = {c.notation for c in model.hand if c.disabled}
                legal = {c.notation for c in game.legal_plays()} if view.my_turn else set()
                assert dimmed == {c.notation for c in view.hand} - legal, game.to_text()
                for state in model.hand:
                    reason = game.why_illegal(Card.parse(state.notation), seat)
                    if view.my_turn and reason is not None:
                        assert words.reason_text(reason) in state.label
            game.play(rng.choice(game.legal_plays()))


def test_the_summary_offers_what_the_seat_can_do() -> None:
    game = Game.new(seed=2)
    view = game.view(0)
    over = SeatSnapshot(view=view, stage="over", can_deal=False)
    summary = build(over, PageState(ready=True)).summary
    assert summary is not None and summary.button_id == "summary-close"
    dealing = build(SeatSnapshot(view=view, stage="over"), PageState(ready=True)).summary
    assert dealing is not None and dealing.button_id == "summary-new-game"
    closed = build(over, PageState(ready=True, dismissed=True))
    assert closed.summary is None and closed.state == "over"


def test_a_table_waiting_for_people_says_for_whom() -> None:
    view = Game.new(seed=2).view(0)
    passed = SeatSnapshot(view=view, stage="pass", waiting=(1, 2), kinds=("host",) * 4)
    assert build(passed, PageState(ready=True)).prompt == "Waiting for West and North…"
    ready = SeatSnapshot(view=view, stage="scores", waiting=(0, 3))
    assert build(ready, PageState(ready=True)).prompt == "Waiting for East…"
    alone = SeatSnapshot(view=view, stage="scores", waiting=(0,))
    assert build(alone, PageState(ready=True)).prompt == ""


def test_a_moon_and_a_win_are_moments_of_their_own() -> None:
    from web.table.model import HandResult

    view = Game.new(seed=2).view(0)
    moon = SeatSnapshot(view=view, stage="scores", result=HandResult(1, (26, 0, 26, 26), 1))
    summary = build(moon, PageState(ready=True)).summary
    assert summary is not None and summary.moment == "moon"
    assert summary.moon == "West shot the moon: 0 for West, 26 for everyone else."
    plain = SeatSnapshot(view=view, stage="scores", result=HandResult(1, (3, 10, 13, 0)))
    assert build(plain, PageState(ready=True)).summary.moment == ""  # type: ignore[union-attr]
    won = finished_game().view(0)
    over = build(SeatSnapshot(view=won, stage="over"), PageState(ready=True)).summary
    assert over is not None and over.moment == ("win" if won.winner == 0 else "")


def test_the_stats_bar_says_the_best_is_none_until_a_game_ends() -> None:
    view = Game.new(seed=2).view(0)
    snap = SeatSnapshot(view=view, stage="pass", may_pass=True)
    assert build(snap, PageState(ready=True)).best == "none yet"
    model = build(snap, PageState(ready=True), Stats(played=3, won=1, best=61))
    assert (model.won, model.best) == ("Won 1 of 3", "61")


def test_events_make_their_sounds() -> None:
    from web.table.sound import CUES, cue_of

    assert cue_of(told.Played(1, Card.parse("QS")), 0) == "queen"
    assert cue_of(told.Played(1, Card.parse("2C")), 0) == "card"
    assert cue_of(told.TookTrick(1, 0), 0) == "trick"
    assert cue_of(told.Broken(), 0) == "hearts"
    assert cue_of(told.Moon(1), 0) == "moon"
    assert cue_of(told.GameWon(2), 2) == "win"
    assert cue_of(told.GameWon(2), 0) is None
    assert cue_of(told.Chose(1), 0) is None
    assert all(notes for notes in CUES.values())


def test_the_address_options_are_read_and_bad_ones_ignored() -> None:
    assert options.parse("?speed=instant&seed=3") == options.Options(True, 3, 20.0)
    assert options.parse("?seed=-1&grace=500") == options.Options(False, None, 120.0)
    assert options.parse("") == options.Options()
    assert options.parse("?wait=5&turn=7").wait == 5.0  # the tests' shorter lobby wait
    assert options.parse("?wait=0").wait == 1.0 and options.parse("?wait=x").wait == 2.0


def test_a_finished_game_shows_no_points_taken_and_can_show_the_scores_again() -> None:
    view = finished_game().view(0)
    over = SeatSnapshot(view=view, stage="over")
    model = build(over, PageState(ready=True))
    assert all(seat.taken == "" for seat in model.seats)  # a moon's 26 taken scored 0
    assert model.summary is not None and not model.scores_again
    closed = build(over, PageState(ready=True, dismissed=True))
    assert closed.summary is None and closed.scores_again


def test_the_seat_taking_the_trick_on_show_is_marked() -> None:
    from hearts import Trick

    view = Game.new(seed=2).view(0)
    shown = Trick(1, tuple(Card.parse(c) for c in ("2C", "KC", "3C", "4C")), 2)
    model = build(SeatSnapshot(view=view, stage="play", shown=shown), PageState(ready=True))
    assert [s.took for s in model.seats] == [False, False, True, False]
    assert not any(s.turn for s in model.seats)  # nobody's turn while a trick is on show
    calm = build(SeatSnapshot(view=view, stage="play"), PageState(ready=True))
    assert not any(s.took for s in calm.seats)


def test_each_seat_shows_its_tricks_and_points_this_hand() -> None:
    assert words.taken_text(0, 0) == ""
    assert words.taken_text(1, 0) == "1 trick"
    assert words.taken_text(3, 14) == "3 tricks · +14"


def test_a_moon_line_says_when_the_jack_of_diamonds_changed_the_scores() -> None:
    from web.words import moon_result

    assert moon_result((0, 26, 26, 26), 0, 0) == (
        "You shot the moon! You score 0 and everyone else 26.")
    assert moon_result((-10, 26, 26, 26), 0, 0).endswith(
        "The J♦ takes ten off its taker's score too.")
    assert moon_result((-26, 0, -10, 0), 0, 2).endswith("too.")
    assert "J♦" not in moon_result((-26, 0, 0, 0), 0, 1)


def _sentences_outside_words() -> list[str]:
    """Sentences written as string literals in a page module other than web/words.py:
    three words or more, a capital first, an end stop (docstrings aside)."""
    found = []
    root = Path(__file__).resolve().parents[1]
    for path in sorted((root / "web").rglob("*.py")):
        if path.name == "words.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(node.value) for node in ast.walk(tree)
                if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
        parts = {id(value) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
                 for value in node.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                text = "".join(str(value.value) if isinstance(value, ast.Constant) else "{}"
                               for value in node.values)
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and id(node) not in docs and id(node) not in parts):
                text = node.value
            else:
                continue
            text = str(text).strip()
            if len(text.split()) >= 3 and re.match(r"[A-Z{]", text) \
                    and re.search(r"[a-z}][.!?…]$", text):
                found.append(f"{path.relative_to(root)}:{node.lineno}: {text[:60]}")
    return found


def test_every_sentence_the_page_says_is_written_in_words() -> None:
    assert _sentences_outside_words() == []
