"""Cards, suits, ranks and sets of cards as bit masks.

A card is a small immutable value with a two-character notation: rank from
``23456789TJQKA`` then suit from ``CDHS`` (``"QS"`` is the Queen of spades,
``"TH"`` the 10 of hearts; ``"10H"`` is accepted when parsing).

Internally every card has an index 0..51, ``suit * 13 + (rank - 2)``, so that a
set of cards is an ``int`` bit mask and sorting by index sorts by suit, then rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

__all__ = [
    "ALL_CARDS",
    "CARD_POINTS",
    "FULL_DECK_MASK",
    "HEARTS_MASK",
    "SUIT_MASKS",
    "Card",
    "CardParseError",
    "Rank",
    "Suit",
    "above_mask",
    "below_mask",
    "bits_of_mask",
    "cards_of_mask",
    "format_cards",
    "highest",
    "indices_of_mask",
    "lowest",
    "mask_of",
    "parse_cards",
]


class CardParseError(ValueError):
    """Raised when text is not valid card notation; the message names the input."""


class Suit(IntEnum):
    """The four suits, in sorting order."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """``"C"``, ``"D"``, ``"H"`` or ``"S"``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ♣ ♦ ♥ ♠."""
        return "♣♦♥♠"[self]

    @property
    def noun(self) -> str:
        """The plural name, as in "you must follow diamonds"."""
        return ("clubs", "diamonds", "hearts", "spades")[self]


class Rank(IntEnum):
    """Card ranks; the value is the rank number, ace high."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """``"2"`` … ``"9"``, ``"T"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``."""
        return "23456789TJQKA"[self - 2]

    @property
    def noun(self) -> str:
        """The spoken rank: "10", "Queen", "Ace"."""
        if self <= Rank.TEN:
            return str(int(self))
        return ("Jack", "Queen", "King", "Ace")[self - Rank.JACK]


_RANK_LETTERS: Final = "23456789TJQKA"
_SUIT_LETTERS: Final = "CDHS"


class Card:
    """An immutable playing card. There are exactly 52 instances.

    >>> Card.parse("QS")
    Card.parse('QS')
    >>> Card.parse("10h").name
    '10 of hearts'
    >>> sorted([Card.parse("2S"), Card.parse("AC")])
    [Card.parse('AC'), Card.parse('2S')]
    """

    __slots__ = ("index", "mask", "rank", "suit")
    index: int
    mask: int
    rank: Rank
    suit: Suit

    def __new__(cls, suit: Suit | int, rank: Rank | int) -> Card:
        """``Card(Suit.SPADES, Rank.QUEEN)`` returns the one Queen of spades."""
        if not (0 <= suit <= 3 and 2 <= rank <= 14):
            raise CardParseError(f"no such card: suit {suit!r}, rank {rank!r}")
        return ALL_CARDS[int(suit) * 13 + int(rank) - 2]

    @classmethod
    def _build(cls, index: int) -> Card:
        card = super().__new__(cls)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "mask", 1 << index)
        object.__setattr__(card, "suit", Suit(index // 13))
        object.__setattr__(card, "rank", Rank(index % 13 + 2))
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with this index (0 = 2♣ … 51 = A♠)."""
        if not 0 <= index < 52:
            raise CardParseError(f"no card has index {index!r}")
        return ALL_CARDS[index]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse notation like ``"QS"``, ``"th"`` or ``"10H"``; raise CardParseError."""
        if not isinstance(text, str):
            raise CardParseError(f"card notation must be text, not {text!r}")
        card = _BY_NOTATION.get(text.strip().upper())
        if card is None:
            raise CardParseError(f"{text!r} is not a card (expected e.g. 'QS', 'TH', '10H', '2C')")
        return card

    @property
    def notation(self) -> str:
        """Two-character notation, e.g. ``"QS"``."""
        return _RANK_LETTERS[self.rank - 2] + _SUIT_LETTERS[self.suit]

    @property
    def name(self) -> str:
        """The spoken name for people and screen readers: "Queen of spades"."""
        return f"{self.rank.noun} of {self.suit.noun}"

    @property
    def short(self) -> str:
        """Short display form with the suit symbol: "Q♠", "10♥"."""
        rank = "10" if self.rank == Rank.TEN else self.rank.letter
        return rank + self.suit.symbol

    @property
    def points(self) -> int:
        """Penalty points: 1 for a heart, 13 for the Queen of spades, else 0."""
        return CARD_POINTS[self.index]

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Card.parse({self.notation!r})"

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index


CARD_POINTS: Final = bytes([0] * 26 + [1] * 13 + [0] * 10 + [13] + [0] * 2)
"""Penalty points by card index (hearts 26..38 score 1, the Q♠ 49 scores 13)."""

ALL_CARDS: Final[tuple[Card, ...]] = tuple(Card._build(i) for i in range(52))

_BY_NOTATION: Final[dict[str, Card]] = {}
for _card in ALL_CARDS:
    _BY_NOTATION[_card.notation] = _card
    if _card.rank == Rank.TEN:
        _BY_NOTATION["10" + _card.suit.letter] = _card
del _card

FULL_DECK_MASK: Final = (1 << 52) - 1
SUIT_MASKS: Final = tuple(0x1FFF << (13 * s) for s in range(4))
HEARTS_MASK: Final = SUIT_MASKS[Suit.HEARTS]

# cards_of_mask() splits a mask into its four 13-bit suit parts and looks each part up
# in a per-suit table of ready-made tuples (filled on first use, at most 4 × 8192
# entries): no bit loop in the engine's hot path.
_SUIT_PARTS: Final[tuple[list[tuple[Card, ...] | None], ...]] = tuple(
    [None] * 8192 for _ in range(4))


def _suit_part(suit: int, part: int) -> tuple[Card, ...]:
    base = suit * 13
    cards = tuple(ALL_CARDS[base + r] for r in range(13) if part >> r & 1)
    _SUIT_PARTS[suit][part] = cards
    return cards


_CLUBS_PARTS, _DIAMONDS_PARTS, _HEARTS_PARTS, _SPADES_PARTS = _SUIT_PARTS


def cards_of_mask(mask: int) -> list[Card]:
    """The cards of a bit mask, sorted by suit then rank.

    >>> cards_of_mask(Card.parse("QS").mask | Card.parse("2C").mask)
    [Card.parse('2C'), Card.parse('QS')]
    """
    out: list[Card] = []
    part = mask & 0x1FFF
    if part:
        out += _CLUBS_PARTS[part] or _suit_part(0, part)
    part = mask >> 13 & 0x1FFF
    if part:
        out += _DIAMONDS_PARTS[part] or _suit_part(1, part)
    part = mask >> 26 & 0x1FFF
    if part:
        out += _HEARTS_PARTS[part] or _suit_part(2, part)
    part = mask >> 39 & 0x1FFF
    if part:
        out += _SPADES_PARTS[part] or _suit_part(3, part)
    return out


# --- bit masks: the one set of helpers the engine and the bots share ----------------------
# A card's bit is 1 << index, so the lowest set bit is the lowest card of the lowest suit.


def lowest(mask: int) -> int:
    """Index of the lowest card of a non-empty mask (lowest suit first)."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """Index of the highest card of a non-empty mask (highest suit first)."""
    return mask.bit_length() - 1


def indices_of_mask(mask: int) -> list[int]:
    """The card indices of ``mask``, lowest first.

    >>> indices_of_mask(Card.parse("2C").mask | Card.parse("QS").mask)
    [0, 49]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def bits_of_mask(mask: int) -> list[int]:
    """The single-card masks of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def above_mask(index: int) -> int:
    """Mask of the cards of ``index``'s suit ranked above it."""
    return SUIT_MASKS[index // 13] & ~((2 << index) - 1)


def below_mask(index: int) -> int:
    """Mask of the cards of ``index``'s suit ranked below it."""
    return SUIT_MASKS[index // 13] & ((1 << index) - 1)


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of some cards."""
    mask = 0
    for card in cards:
        mask |= card.mask
    return mask


def parse_cards(text: str) -> list[Card]:
    """Parse cards written with or without spaces/commas: ``"2C 3C"``, ``"2C3C"``, ``"10H,QS"``.

    ``"-"`` or an empty string means no cards. Raises CardParseError.
    """
    if not isinstance(text, str):
        raise CardParseError(f"cards must be text, not {text!r}")
    compact = text.replace(",", " ").split()
    cards: list[Card] = []
    for word in compact:
        if word == "-":
            continue
        cards.extend(_split_run(word))
    return cards


def _split_run(word: str) -> Iterator[Card]:
    i = 0
    while i < len(word):
        size = 3 if word.startswith("10", i) else 2
        piece = word[i : i + size]
        if len(piece) < 2:
            raise CardParseError(f"{word!r} is not a list of cards (trailing {piece!r})")
        try:
            yield Card.parse(piece)
        except CardParseError:
            raise CardParseError(f"{word!r} is not a list of cards ({piece!r})") from None
        i += size


def format_cards(cards: Iterable[Card], sep: str = "") -> str:
    """Cards in notation joined by ``sep`` (``"-"`` for none), in the given order."""
    text = sep.join(card.notation for card in cards)
    return text or "-"
