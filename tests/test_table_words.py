"""The table's words: a hint names its cards once, the pass arrow points where they go,
a game from a code says so on the felt."""

from __future__ import annotations

from hearts import Card, Game
from hearts.bots import Hint
from tests.solo_page import local_seat
from web import formats, words
from web.record import gamecode
from web.seats.results import Books


def test_a_hint_names_its_cards_once() -> None:
    cards = [Card.parse(c) for c in ("AC", "QH", "AH")]
    said = words.hint_text(Hint(tuple(cards), "Pass the A♣, Q♥ and A♥: they win tricks."))
    assert said == "Hint: Pass the A♣, Q♥ and A♥: they win tricks."
    # A reason that doesn't name them: the cards come first, in words.
    assert words.hint_text(Hint(tuple(cards[:1]), "Keep your hearts.")) == \
        "Hint: Ace of clubs. Keep your hearts."
    # A card the normal player's rules wouldn't play: the hard player's two figures.
    figures = Hint((Card.parse("9D"),), "", 2.66, Card.parse("KD"), 3.71)
    assert words.hint_text(figures) == ("Hint: play the 9♦: about 2.7 points expected for "
                                        "the hand, about 3.7 points with the K♦.")


def test_the_pass_arrow_points_where_the_cards_go() -> None:
    game = Game.new(seed=1)
    assert words.pass_arrow(game.view(0)) == "←"  # South passes left: to West, on the left
    assert words.pass_prompt(game.view(0)) == "Pass 3 cards to the left ← West."
    assert words.pass_direction_chip(game.view(3)) == "Hand 1: pass left ← South"
    game = Game.new(seed=1)
    for seat in range(4):
        game.choose_pass(seat, game.hand(seat)[:3])
    while game.hand_number == 1:
        game.play(game.legal_plays()[0])
    assert words.pass_arrow(game.view(0)) == "→"  # hand 2: right, to East
    for _ in range(13 * 4):
        if game.hand_number == 3:
            break
        if game.phase.value == "pass":
            for seat in range(4):
                game.choose_pass(seat, game.hand(seat)[:3])
        game.play(game.legal_plays()[0])
    assert words.pass_arrow(game.view(0)) == "↑"  # hand 3: across, to North


def test_a_game_from_a_code_has_its_badge_and_keeps_it() -> None:
    seat, _, _ = local_seat()
    seat.play_code(77)
    code = gamecode.encode(77)
    assert seat.snapshot().badge == words.code_badge(code) == f"Game code {code}"
    saved, _ = formats.load_save(formats.dump_save(seat.saved))
    assert saved is not None and saved.from_code
    assert Books.badge(seat.solo.books, formats.Saved(Game.new(5))) == ""


def test_a_dailys_result_says_the_help_taken() -> None:
    import datetime
    day = datetime.date(2026, 12, 3)
    assert words.share_text(day, 110, 4, 1) == "Hearts daily 2026-12-03: 110 points, 4th of 4" \
        " · streak 1"
    assert words.share_text(day, 110, 4, 1, 1, 2).endswith(" · streak 1 · 1 undo, 2 hints")
    assert words.share_text(day, 5, 1, 3, 0, 1).endswith(" · 1 hint")


def test_undos_and_hints_are_counted_and_kept() -> None:
    seat, _, _ = local_seat()
    seat.hinted()
    seat.hinted()
    assert seat.saved.helps == (0, 2)
    saved, note = formats.load_save(formats.dump_save(seat.saved))
    assert saved is not None and saved.helps == (0, 2) and note is None
    text = formats.dump_save(seat.saved).replace('"helps":[0,2]', '"helps":[0,"x"]')
    saved, note = formats.load_save(text)
    assert saved is not None and saved.helps == (0, 0) and note is not None
