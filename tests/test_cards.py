"""Cards: notation, spoken names, sorting, parse errors."""

import pickle

import pytest

from hearts import Card, CardParseError, Rank, Suit, parse_cards
from hearts.cards import ALL_CARDS, cards_of_mask, format_cards, mask_of


def test_notation_round_trips_for_all_52_cards() -> None:
    assert len({c.notation for c in ALL_CARDS}) == 52
    for card in ALL_CARDS:
        assert Card.parse(card.notation) is card
        assert eval(repr(card)) is card
        assert str(card) == card.notation


def test_ten_is_t_and_10_is_accepted_when_parsing() -> None:
    assert Card.parse("TH") is Card.parse("10H") is Card.parse("10h") is Card(Suit.HEARTS, 10)
    assert str(Card.parse("10C")) == "TC"


def test_spoken_names() -> None:
    assert Card.parse("QS").name == "Queen of spades"
    assert Card.parse("TH").name == "10 of hearts"
    assert Card.parse("2C").name == "2 of clubs"
    assert Card.parse("AD").name == "Ace of diamonds"
    assert Card.parse("TD").short == "10♦"
    assert Card.parse("KS").short == "K♠"


def test_sorting_is_by_suit_then_rank() -> None:
    cards = parse_cards("AS 2H KC 2C TD")
    assert [str(c) for c in sorted(cards)] == ["2C", "KC", "TD", "2H", "AS"]
    assert Card.parse("AC") < Card.parse("2D")


def test_points() -> None:
    assert Card.parse("QS").points == 13
    assert all(Card(Suit.HEARTS, r).points == 1 for r in Rank)
    assert sum(c.points for c in ALL_CARDS) == 26


def test_cards_are_immutable_singletons() -> None:
    card = Card.parse("QS")
    with pytest.raises(AttributeError):
        card.rank = Rank.KING
    assert pickle.loads(pickle.dumps(card)) is card
    assert len({Card.parse("QS"), Card(Suit.SPADES, Rank.QUEEN)}) == 1


@pytest.mark.parametrize("bad", ["", "Q", "QX", "1S", "11S", "ZS", "QSS", "♠Q", "10"])
def test_bad_notation_raises_a_value_error_naming_the_input(bad: str) -> None:
    with pytest.raises(CardParseError) as info:
        Card.parse(bad)
    assert isinstance(info.value, ValueError)
    assert repr(bad) in str(info.value)


def test_non_text_is_refused() -> None:
    with pytest.raises(CardParseError):
        Card.parse(12)  # type: ignore[arg-type]


def test_card_lists_parse_with_or_without_separators() -> None:
    assert parse_cards("2C3C 10H,QS") == parse_cards("2C 3C TH QS")
    assert parse_cards("-") == []
    with pytest.raises(CardParseError):
        parse_cards("2C3")


def test_masks() -> None:
    cards = parse_cards("2C QS AH")
    mask = mask_of(cards)
    assert cards_of_mask(mask) == sorted(cards)
    assert format_cards(cards_of_mask(mask)) == "2CAHQS"
    assert format_cards([]) == "-"
