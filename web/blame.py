"""Who broke a fair table's rules, and how: the kinds of cheating its checks catch.

Below ``web.words`` (which says each in words, ``fault_text``) and the fair protocol
(``web.p2p.fair.transcript`` raises them, the audit finds them), so the sentences need
none of the protocol's code.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from hearts.cards import Card

__all__ = ["Cheat", "Fault"]


class Cheat(Enum):
    """What a page did wrong; ``web.words.fault_text`` says it in words."""

    BAD_DECK = "bad_deck"          # a deck that is not 52 different numbers
    SHUFFLE = "shuffle"            # the shuffled deck isn't the deck it got, locked with its key
    LOCK = "lock"                  # a card locked with something other than its keys
    OPEN = "open"                  # a card spoiled while opening it to its seat
    PASS_NOT_OWN = "pass_not_own"  # passed cards it wasn't dealt
    BLIND = "blind"                # spoiled the cards passed to it
    FALSE_PASS = "false_pass"      # passed something other than the cards it chose
    NOT_DEALT = "not_dealt"        # played a card that wasn't dealt or passed to it
    BAD_KEY = "bad_key"            # a played card's proof or key doesn't hold
    OUT_OF_TURN = "out_of_turn"    # played or sent a message out of turn
    NOT_2C = "not_2c"              # the first card played was not the 2♣
    REVOKE = "revoke"              # didn't follow suit while holding it
    FIRST_TRICK = "first_trick"    # points on the first trick while holding other cards
    UNBROKEN = "unbroken"          # led a heart before hearts were broken, holding others
    BAD_KEYS = "bad_keys"          # showed keys at the end that aren't the ones it used
    NO_KEYS = "no_keys"            # didn't show its keys at the end
    FALSE_ALARM = "false_alarm"    # said a card of its own didn't open, and it did
    MALFORMED = "malformed"        # sent a message that isn't one of the protocol's
    MARKED = "marked"              # sent a number outside the cards' group (a marked card)
    UNSIGNED = "unsigned"          # a message without its page's signature, or out of number
    FALSE_ECHO = "false_echo"      # said it saw messages other than those it was sent
    EQUIVOCATED = "equivocated"    # signed two different messages for one step
    NO_EVIDENCE = "no_evidence"    # sent no evidence when the pages' echoes differed
    FALSE_DIGEST = "false_digest"  # sent a digest of a record no page holds, echoes agreeing
    NO_DIGEST = "no_digest"        # sent no digest once every card of the hand was played
    STEERED = "steered"            # played the computer it was given otherwise than its bot
    RESUMED_ELSEWHERE = "resumed"  # came back after a reload with other keys, or another hand


@dataclass(frozen=True)
class Fault:
    """Who cheated and how: the card it concerns, and the led suit for a revoke."""

    seat: int
    kind: Cheat
    card: Card | None = None
    suit: int | None = None
