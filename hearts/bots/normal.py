"""``normal``: a strong rule-based player, and the advisor behind the hint.

Every decision is a pure function of the ``PlayerView`` (no memory between calls), made
with card counting from ``Situation``: which cards are still out, who has shown a void,
where the cards this seat passed went, who is winning the trick and with what.

Passing
    Pass the Q♠ unless at least three lower spades guard it; pass the A♠/K♠ when low
    spades are short; go void in a short club or diamond suit when that fits; shed high
    hearts and other high cards; keep low cards that can duck. A hand that can run every
    trick keeps its strength and passes its losers instead (a moon attempt).

Play
    Lead the card that costs least on average: the chance of winning the trick times the
    points likely to land on it, counting voids shown and the Q♠ still out; lead low spades
    to flush the Q♠ when no higher spade of ours is exposed. Follow with the highest card
    that ducks under the winning card; when last on a pointless trick, win it with a high
    card; dump the Q♠ under a higher spade. When void, drop the Q♠, then A♠/K♠ while the
    Q♠ is out, then high hearts and the most dangerous high card.

The J♦ (house rule: −10 to its taker)
    Never pass it; last to a trick holding the J♦ and fewer than 10 points, win it if it
    can; never throw the J♦ away on another player's trick.

Moon
    When one other seat has taken every point so far (and enough of them), stop it: take
    a point (win a trick with points, lead a top heart) or give points to anyone else,
    and never feed points to the runner. When this seat has taken every point so far and
    has no losing card left (or set out with a moon hand and has at most one), it runs:
    lead top cards, win every trick, discard no points.

``decide_play`` and ``decide_pass`` return the choice with a sentence for the hint.
"""

from __future__ import annotations

from dataclasses import dataclass

from hearts.bots.moon import better_moon_scoring
from hearts.bots.situation import (
    AS_INDEX,
    HEARTS,
    KS_INDEX,
    QS_INDEX,
    SPADES,
    SPADES_ABOVE_QUEEN,
    SPADES_MASK,
    Situation,
)
from hearts.cards import (
    ALL_CARDS,
    FULL_DECK_MASK,
    HEARTS_MASK,
    SUIT_MASKS,
    Card,
    above_mask,
    below_mask,
    highest,
    indices_of_mask,
    lowest,
    mask_of,
)
from hearts.rules import (
    JACK_OF_DIAMONDS,
    JD_BONUS,
    JD_MASK,
    QS_MASK,
    SEAT_NAMES,
    TWO_CLUBS_MASK,
    MoonScoring,
)
from hearts.view import Phase, PlayerView

__all__ = ["Choice", "NormalBot", "PassChoice", "decide_pass", "decide_play", "explain_pass"]

SUIT_NOUNS = ("clubs", "diamonds", "hearts", "spades")

# Tunable weights (measured with `python tools/arena.py`).
MOON_THREAT_POINTS = 18
"""A seat that alone has taken this many points (or ``MOON_THREAT_HEARTS`` hearts) may run."""
MOON_THREAT_HEARTS = 6
SHED_WEIGHT = 0.03
"""Lead bonus per unseen lower card: leading a high card while it is safe sheds a liability."""
WIN_LEAD_COST = 0.1
"""Cost of winning a trick as the leader (we must lead again)."""
SHOOT_LOSERS_WITH_POINTS = 2
"""Having taken the Q♠ and a heart (and nobody else a point), run with this many losers."""
WIN_LAST_CLEAN = True
"""Playing last to a trick without points, win it with the highest card (shed it safely)."""
OVER_HIGH_WHEN_SAFE = True
"""Unable to duck with players to come and no sign of points, play the highest card."""
DISCARD_HEART_BONUS = 5.0
"""How much more readily a heart is thrown away than a side card of equal danger."""


@dataclass(frozen=True, slots=True)
class Choice:
    """A card to play and the reason, in a sentence for the person."""

    card: Card
    reason: str


@dataclass(frozen=True, slots=True)
class PassChoice:
    """Three cards to pass and the reason, in a sentence for the person."""

    cards: tuple[Card, ...]
    reason: str

JD_INDEX = JACK_OF_DIAMONDS.index

class NormalBot:
    """The rule-based player (see the module docstring). Its play does not depend on the seed."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose_moon(self, view: PlayerView) -> MoonScoring:
        """How its moon scores: see ``hearts.bots.moon.better_moon_scoring``."""
        return better_moon_scoring(view)

    def choose_pass(self, view: PlayerView) -> list[Card]:
        """Three cards to pass (see ``decide_pass``)."""
        return list(decide_pass(view).cards)

    def choose_play(self, view: PlayerView) -> Card:
        """A legal card to play (see ``decide_play``)."""
        return decide_play(view).card


def _short(index: int) -> str:
    return ALL_CARDS[index].short


# --- moon: who might run, and are we running ------------------------------------------------


def _losers(hand: int, unseen: int) -> int:
    """Cards of ``hand`` that would lose a trick if led out from the top, suit by suit.

    In each suit the cards above every unseen card are sure winners; if there are at least
    as many of them as unseen cards, the rest of the suit wins too (the others run out).
    """
    losers = 0
    for suit in range(4):
        mine = hand & SUIT_MASKS[suit]
        out = unseen & SUIT_MASKS[suit]
        if not mine or not out:
            continue
        sure = (mine & above_mask(highest(out))).bit_count()
        if sure < out.bit_count():
            losers += mine.bit_count() - sure
    return losers


def moon_worthy(hand: int) -> bool:
    """Whether a 13-card hand is strong enough to try to shoot the moon."""
    hearts = hand & HEARTS_MASK
    top_hearts = 0
    for index in range(38, 25, -1):  # A♥ down
        if hearts >> index & 1:
            top_hearts += 1
        else:
            break
    if top_hearts < 3 and not (hearts.bit_count() >= 6 and top_hearts >= 2):
        return False
    return _losers(hand, FULL_DECK_MASK & ~hand) <= 3


def _moon_threat(s: Situation) -> int:
    """The other seat that alone has taken points and may be shooting the moon, or -1."""
    if s.points[s.seat]:
        return -1
    takers = s.others_with_points()
    if len(takers) != 1:
        return -1
    runner = takers[0]
    taken = s.points[runner]
    hearts = taken - 13 if taken >= 13 and not s.unseen & QS_MASK and not s.hand & QS_MASK \
        else taken
    if s.have_qs:
        return -1  # the runner can't take every point while we hold the Q♠
    if taken >= MOON_THREAT_POINTS or hearts >= MOON_THREAT_HEARTS:
        return runner
    return -1


def _shooting(s: Situation, view: PlayerView) -> bool:
    """Whether this seat should play to take every point."""
    if s.others_with_points():
        return False
    if not view.rules.shoot_the_moon:
        return False
    losers = _losers(s.hand, s.unseen)
    if losers == 0 and (s.points[s.seat] > 0 or s.tricks_done >= 4):
        return True
    if losers <= SHOOT_LOSERS_WITH_POINTS and s.points[s.seat] >= 14:
        return True
    if losers <= 1:
        start = s.hand
        for seat, card in view.plays():
            if seat == s.seat:
                start |= card.mask
        return moon_worthy(start)
    return False


# --- play ---------------------------------------------------------------------------------


def decide_play(view: PlayerView) -> Choice:
    """The card to play now, with the reason. Raises ValueError if it is not our turn."""
    legal = view.legal_plays
    if not legal:
        raise ValueError("it is not this seat's turn to play")
    if len(legal) == 1:
        card = legal[0]
        if card.mask == TWO_CLUBS_MASK and view.trick is None:
            return Choice(card, "You hold the 2♣, so you lead it to the first trick.")
        return Choice(card, f"The {card.short} is your only legal card.")
    s = Situation(view)
    if _shooting(s, view):
        index, reason = _shoot(s)
    else:
        threat = _moon_threat(s)
        if s.position == 0:
            index, reason = _lead(s, threat)
        elif s.legal & SUIT_MASKS[s.led]:
            index, reason = _follow(s, threat)
        else:
            index, reason = _discard(s, threat)
    return Choice(ALL_CARDS[index], reason)


def _shoot(s: Situation) -> tuple[int, str]:
    legal = s.legal
    why = "You have taken every point so far and hold the top cards — keep winning to shoot " \
          "the moon."
    if s.position == 0:
        bosses = [i for i in indices_of_mask(legal) if s.is_boss(i)]
        if bosses:
            # Draw out hearts first, then cash suits the others still hold.
            def key(i: int) -> tuple[int, int, int]:
                suit = i // 13
                return (suit == HEARTS, s.unseen_in(suit).bit_count(), i % 13)
            return max(bosses, key=key), why
        return highest(legal & ~HEARTS_MASK or legal), why
    suit_cards = legal & SUIT_MASKS[s.led]
    if suit_cards:
        top = highest(suit_cards)
        if top > s.win_index:
            return top, why
        return lowest(suit_cards), "You can't win this trick, so play your lowest card."
    safe = legal & ~HEARTS_MASK & ~QS_MASK
    if safe:
        # Throw the card least likely to win a trick later.
        return min(indices_of_mask(safe),
                   key=lambda i: ((s.unseen & below_mask(i)).bit_count(), i)), \
            "Keep your points for your own tricks: throw away a card that can't win."
    return lowest(legal), "Every card you could throw gives points away; throw the smallest."


def _lead(s: Situation, threat: int) -> tuple[int, str]:
    legal = s.legal
    if threat >= 0:
        hearts = legal & HEARTS_MASK
        if hearts and s.is_boss(highest(hearts)):
            top = highest(hearts)
            return top, (f"{SEAT_NAMES[threat]} has taken every point so far — lead the "
                         f"{_short(top)}, the top heart, to take a point and stop a moon.")
    best = -1
    best_cost = 0.0
    for index in indices_of_mask(legal):
        cost = _lead_cost(s, index, threat)
        if best < 0 or cost < best_cost - 1e-9:
            best, best_cost = index, cost
    return best, _lead_reason(s, best)


def _lead_cost(s: Situation, index: int, threat: int) -> float:
    suit = index // 13
    out = s.unseen_in(suit)
    n_out = out.bit_count()
    n_above = (out & above_mask(index)).bit_count()
    n_below = n_out - n_above
    opponents = [o for o in range(4) if o != s.seat]
    followers = [o for o in opponents if not s.void_in(o, suit)]
    p_win = 1.0 if n_out == 0 or n_above == 0 else (n_below / n_out) ** n_above
    points = float(ALL_CARDS[index].points)
    if suit == HEARTS:
        points += min(len(followers), n_out)
    qs_holders = s.holders(QS_INDEX) if s.qs_out else []
    hearts_out = bool(s.unseen & HEARTS_MASK)
    n_f = len(followers)
    p_void_each = ((n_f - 1) / n_f) ** n_out if n_f > 1 else (0.0 if n_out else 1.0)
    for o in opponents:
        p_void = 1.0 if o not in followers else p_void_each
        if not p_void:
            continue
        dump = 0.0
        if suit != SPADES and o in qs_holders:
            dump += 13.0 / len(qs_holders)
        if hearts_out and suit != HEARTS:
            dump += 1.0
        points += p_void * dump
    if suit == SPADES and s.qs_out and index > QS_INDEX:
        points += 13.0 * 0.9
    cost = p_win * points + WIN_LEAD_COST * p_win
    if suit == SPADES:
        if s.qs_out and index < QS_INDEX and not s.hand & SPADES_ABOVE_QUEEN:
            cost -= 0.6  # flush the Q♠ out while our spades are all lower
        if s.have_qs and index != QS_INDEX:
            cost += 0.5  # keep the guards of our own Q♠
    elif suit != HEARTS and s.mine_in(suit).bit_count() <= 2:
        cost -= 0.1  # on the way to a void
    if suit == HEARTS and threat >= 0:
        cost += 2.0  # a low heart feeds the runner
    cost -= SHED_WEIGHT * n_below * (1.0 - min(1.0, p_win * points))
    return cost


def _lead_reason(s: Situation, index: int) -> str:
    card = _short(index)
    suit = index // 13
    out = s.unseen_in(suit)
    if suit == SPADES and s.qs_out and index < QS_INDEX:
        return (f"Lead the {card} to draw out the Q♠ — your spades are all lower, so you "
                f"can't be caught with it.")
    if not out & below_mask(index) and out:
        return f"Lead the {card}: every other {SUIT_NOUNS[suit][:-1]} still out is higher."
    if not out & above_mask(index):
        return (f"Lead the {card} now, while it is safe: it wins a trick that should carry "
                f"no points.")
    if suit == HEARTS:
        return f"Lead the {card}, a low heart that someone else should have to take."
    return (f"Lead the {card}: it is unlikely to win, and others still hold "
            f"{SUIT_NOUNS[suit]}.")


def _follow(s: Situation, threat: int) -> tuple[int, str]:
    suit = s.led
    cards = s.legal & SUIT_MASKS[suit]
    win = s.win_index
    winner = SEAT_NAMES[s.win_seat]
    duck = cards & below_mask(win)
    over = cards & above_mask(win)
    last = s.position == 3
    later = s.later_seats()
    noun = SUIT_NOUNS[suit]
    if threat >= 0 and over:
        runner_can_win = s.win_seat == threat or (
            threat in later and not s.void_in(threat, suit))
        if (s.trick_points > 0 or suit == HEARTS) and runner_can_win:
            top = highest(over & ~QS_MASK or over)
            return top, (f"{SEAT_NAMES[threat]} has taken every point so far — win this "
                         f"trick with the {_short(top)} to stop a moon.")
    if suit == SPADES and cards & QS_MASK and win > QS_INDEX and not (
            threat >= 0 and s.win_seat == threat):
        return QS_INDEX, (f"{winner}'s {_short(win)} is winning, so drop the Q♠ "
                          f"underneath it.")
    non_q = cards & ~QS_MASK
    if last and over and s.jd_bonus and s.trick_points < JD_BONUS and any(
            index == JD_INDEX for _, index in s.trick):
        top = highest(over & ~QS_MASK or over)
        return top, (f"The J♦ is in this trick and you play last: win it with the "
                     f"{_short(top)} — it takes 10 off your score.")
    if last:
        if s.trick_points == 0 and suit != HEARTS and (WIN_LAST_CLEAN or not duck):
            top = highest(non_q or cards)
            if top > win:
                return top, (f"You play last and the trick has no points: win it with the "
                             f"{_short(top)} and lose a high card safely.")
            return top, (f"Play the {_short(top)}, your highest {noun[:-1]} under the "
                         f"{_short(win)}.")
        if duck:
            top = highest(duck)
            return top, (f"Duck under the {_short(win)} — the {_short(top)} lets "
                         f"{winner} keep this trick and its points.")
        top = highest(non_q or cards)
        return top, (f"You can't duck the {_short(win)}, so win with your highest "
                     f"{noun[:-1]}, the {_short(top)}.")
    if duck:
        top = highest(duck)
        return top, (f"Duck under the {_short(win)} — the {_short(top)} is your highest "
                     f"{noun[:-1]} that won't win the trick.")
    if suit == SPADES and s.qs_out:
        under_q = non_q & below_mask(QS_INDEX)
        if under_q:
            top = highest(under_q)
            return top, (f"Play the {_short(top)}: you can't duck, and it is below the Q♠, "
                         f"so no one can drop the Queen on you.")
        low = lowest(non_q or cards)
        return low, (f"You can't duck; the {_short(low)} is your lowest spade, so a later "
                     f"player may still go over it.")
    risky = s.trick_points > 0 or any(s.void_in(o, suit) for o in later) or \
        s.unseen_in(suit).bit_count() < 2 * len(later)
    if not risky and OVER_HIGH_WHEN_SAFE:
        top = highest(non_q or cards)
        return top, (f"You can't duck, and nobody is likely to drop points yet — play the "
                     f"{_short(top)}, your highest {noun[:-1]}.")
    low = lowest(non_q or cards)
    return low, (f"You can't duck; play the {_short(low)}, your lowest {noun[:-1]}, so "
                 f"someone after you may take the trick.")


def _discard(s: Situation, threat: int) -> tuple[int, str]:
    legal = s.legal
    winner = SEAT_NAMES[s.win_seat]
    led = SUIT_NOUNS[s.led]
    if threat >= 0:
        later = s.later_seats()
        runner_gets_it = s.win_seat == threat or (
            threat in later and not s.void_in(threat, s.led))
        points = legal & (HEARTS_MASK | QS_MASK)
        if runner_gets_it:
            safe = legal & ~HEARTS_MASK & ~QS_MASK
            if safe:
                pick = max(indices_of_mask(safe), key=lambda i: _discard_score(s, i))
                return pick, (f"{SEAT_NAMES[threat]} may be shooting the moon — don't give "
                              f"points to that trick; throw the {_short(pick)}.")
        elif points:
            pick = QS_INDEX if points & QS_MASK else highest(points)
            return pick, (f"Give the {_short(pick)} to {winner}: with points on two seats, "
                          f"{SEAT_NAMES[threat]} can't shoot the moon.")
    if legal & QS_MASK:
        return QS_INDEX, f"You have no {led}, so drop the Q♠ on {winner}'s trick."
    if s.jd_bonus:
        legal = legal & ~JD_MASK or legal  # the J♦ is worth −10 to whoever takes it: keep it
    pick = max(indices_of_mask(legal), key=lambda i: (_discard_score(s, i), i))
    card = _short(pick)
    suit = pick // 13
    if suit == SPADES and pick > QS_INDEX and s.qs_out:
        return pick, (f"You have no {led}: get rid of the {card} while the Q♠ is still "
                      f"out, so it can't catch the Queen later.")
    if suit == HEARTS:
        return pick, (f"You have no {led}: give {winner} the {card} — a point for them "
                      f"and one less high heart for you.")
    return pick, (f"You have no {led}: throw away the {card}, a high card that could "
                  f"win a trick later.")


def _discard_score(s: Situation, index: int) -> float:
    suit = index // 13
    out = s.unseen_in(suit)
    if not out:
        return 6.0 + (index % 13) / 13  # the others are out: it wins whenever it is led
    n_below = (out & below_mask(index)).bit_count()
    n_above = (out & above_mask(index)).bit_count()
    score = n_below - 0.3 * n_above
    if n_below == 0:
        score -= 3.0  # it can't win anything: keep it to duck with
    if suit == SPADES and index > QS_INDEX and s.qs_out:
        score += 13.0
    elif suit == HEARTS:
        score += DISCARD_HEART_BONUS
    elif s.mine_in(suit).bit_count() == 1:
        score += 1.5  # another void
    return score


# --- passing ---------------------------------------------------------------------------------


def decide_pass(view: PlayerView) -> PassChoice:
    """Three cards to pass, with the reason. Raises ValueError outside a passing hand."""
    if view.phase is not Phase.PASS or view.pass_to is None:
        raise ValueError("there is nothing to pass now")
    hand = mask_of(view.hand)
    if moon_worthy(hand):
        return _moon_pass(hand)
    scores: dict[int, float] = {}
    tags = _pass_tags(hand)
    spades = hand & SPADES_MASK
    low_spades = (spades & below_mask(QS_INDEX)).bit_count()
    has_qs = bool(hand & QS_MASK)
    keep_qs = has_qs and low_spades >= 3
    jd = view.rules.jd_bonus
    for index in indices_of_mask(hand):
        suit = index // 13
        rank = index % 13  # 0 = two … 12 = ace
        if jd and index == JD_INDEX:
            scores[index] = -20.0  # worth −10 to whoever takes it: never give it away
        elif index == QS_INDEX:
            scores[index] = 0.5 if keep_qs else 100.0
        elif index in (KS_INDEX, AS_INDEX):
            if keep_qs:
                scores[index] = 8.0 + rank
            elif low_spades < 3:
                scores[index] = 70.0 + rank
            else:
                scores[index] = 20.0 + rank
        elif suit == SPADES:
            scores[index] = -5.0 + rank * 0.2  # low spades guard against the Q♠
        elif suit == HEARTS:
            scores[index] = (0, 0, 0, 0, 1, 2, 4, 8, 14, 24, 32, 40, 50)[rank] + 0.1
        else:
            if 1 << index == TWO_CLUBS_MASK:
                scores[index] = -10.0
            else:
                scores[index] = (0, 0, 0, 1, 2, 3, 5, 8, 12, 17, 22, 27, 32)[rank] * 1.0
    ranked = sorted(scores, key=lambda i: (-scores[i], i))
    plans: list[tuple[float, list[int], list[int]]] = []
    plans.append((sum(scores[i] for i in ranked[:3]), ranked[:3], []))
    short_suits = [suit for suit in (0, 1)
                   if 1 <= (hand & SUIT_MASKS[suit]).bit_count() <= 3
                   and not (jd and hand & SUIT_MASKS[suit] & JD_MASK)]
    options = [[suit] for suit in short_suits]
    if len(short_suits) == 2:
        options.append(short_suits)
    for voided in options:
        cards = [i for suit in voided for i in indices_of_mask(hand & SUIT_MASKS[suit])]
        if len(cards) > 3:
            continue
        rest = [i for i in ranked if i not in cards][: 3 - len(cards)]
        chosen = cards + rest
        value = sum(scores[i] for i in chosen) + 25.0 * len(voided)
        plans.append((value, chosen, voided))
    _, best, voided = max(plans, key=lambda p: p[0])
    picked = tuple(sorted(ALL_CARDS[i] for i in best))
    return PassChoice(picked, _pass_reason(picked, tags, voided))


def _pass_tags(hand: int) -> dict[int, str]:
    """Why each card of ``hand`` would be passed, as a tag the reason reads: "qs", "spade"
    (the A♠/K♠), "heart", "high" (anything else)."""
    tags: dict[int, str] = {}
    for index in indices_of_mask(hand):
        if index == QS_INDEX:
            tags[index] = "qs"
        elif index in (KS_INDEX, AS_INDEX):
            tags[index] = "spade"
        elif index // 13 == HEARTS:
            tags[index] = "heart"
        else:
            tags[index] = "high"
    return tags


def explain_pass(view: PlayerView, cards: tuple[Card, ...]) -> str:
    """The reason for passing ``cards`` (three of the view's hand), in the words the normal
    player gives its own pass: e.g. for the hint when another player chose the cards."""
    hand = mask_of(view.hand)
    picked = mask_of(cards)
    voided = [suit for suit in (0, 1)
              if hand & SUIT_MASKS[suit] and not hand & SUIT_MASKS[suit] & ~picked]
    return _pass_reason(tuple(sorted(cards)), _pass_tags(hand), voided)


def _moon_pass(hand: int) -> PassChoice:
    """Pass the three weakest side cards, keeping the hearts and the top cards."""
    unseen = FULL_DECK_MASK & ~hand

    def weakness(i: int) -> tuple[int, int]:
        out = unseen & SUIT_MASKS[i // 13]
        return ((out & above_mask(i)).bit_count(), -(i % 13))

    side = [i for i in indices_of_mask(hand & ~HEARTS_MASK)]
    side.sort(key=weakness, reverse=True)
    chosen = side[:3]
    if len(chosen) < 3:
        chosen += indices_of_mask(hand & HEARTS_MASK)[: 3 - len(chosen)]
    cards = tuple(sorted(ALL_CARDS[i] for i in chosen))
    names = _join([c.short for c in cards])
    return PassChoice(cards, f"Pass the {names}: your hand is strong enough to try to shoot the "
                             f"moon, so keep the high hearts and top cards.")


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _pass_reason(cards: tuple[Card, ...], tags: dict[int, str], voided: list[int]) -> str:
    names = _join([c.short for c in cards])
    parts: list[str] = []
    void_cards = [c for c in cards if int(c.suit) in voided]
    if any(tags[c.index] == "qs" for c in cards):
        parts.append("the Q♠ is hard to hide with so few low spades")
    high_spades = [c.short for c in cards if tags[c.index] == "spade"]
    if high_spades:
        parts.append(f"the {_join(high_spades)} could catch the Q♠")
    if voided:
        suits = _join([SUIT_NOUNS[s] for s in voided])
        parts.append(f"it leaves you void in {suits}, so you can throw away cards later")
    hearts = [c.short for c in cards if tags[c.index] == "heart" and c not in void_cards]
    if hearts:
        parts.append(f"high hearts like the {hearts[0]} tend to win tricks full of points")
    highs = [c.short for c in cards if tags[c.index] == "high" and c not in void_cards]
    if highs:
        parts.append(f"the {_join(highs)} would win tricks you'd rather lose")
    return f"Pass the {names}: " + "; ".join(parts) + "."
