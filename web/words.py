"""Every sentence the table says, written once: names, lists, prompts, events, reasons.

Pure functions of engine values (``PlayerView``, ``Trick``, ``Card``) and of the public
events as told (``web.told``) — the single-player table and a seat at a private table
describe the same events with the same words. Seats are named from the
viewer's side: the viewer is "You", the others by their place ("West", "North (computer)").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from hearts import SEAT_NAMES, Card, PassDirection, PlayerView, Rules, Trick
from hearts.bots.hint import Hint
from hearts.cards import Suit
from hearts.rules import MoonScoring, PassCycle, pass_target
from hearts.story import HandStory
from web.blame import Cheat, Fault
from web.told import Broken, GameWon, HandOver, Moon, Played, Told, TookTrick

__all__ = [
    "KIND_WORDS",
    "cards_text",
    "disagreement_text",
    "fault_text",
    "house_rules_line",
    "house_rules_sentences",
    "house_rules_short",
    "join",
    "last_trick_text",
    "moon_result",
    "pass_prompt",
    "plural",
    "reason_text",
    "received_text",
    "scores_text",
    "seat_name",
    "suit_noun",
    "told_text",
    "trick_text",
    "turn_prompt",
]

KIND_WORDS = {"computer": " (computer)", "away": " (reconnecting)", "open": " (empty seat)"}
PERSON_WORDS = {"friend": " (player)", "host": " (host)"}
"""What the seat of another person who chose no name says (a place alone reads as the
person's own at the solo table)."""
"""What a seat's name says about who plays it at a table with other people (a person's seat,
the host's included, is just their name)."""
NAME_RULE = ("A name is 1 to 20 characters on one line (letters, digits, spaces, signs). "
             "Your seat keeps its place's name until you choose one.")
NAME_KEPT = "Your name is kept on this device and shown to the players at your tables."

# --- refusals and short prompts (the person's move turned down, or what to do now) ----------
CHOSEN_THREE = "You have chosen three cards already: tap one of them to put it back."
CHOOSE_THREE = "Choose exactly three cards to pass."
PASSED_ALREADY = "You've passed: the cards change hands once everyone has chosen."
PASSED_WAIT = "You've passed: wait for the others."
WAIT_TURN = "Wait for your turn."
HINT_LATER = "A hint is ready when it's your turn."
NEW_GAME = "New game."
class Ask(NamedTuple):
    """A confirmation: its question, what it says happens, and the button that goes on."""

    title: str
    text: str
    go: str


CONFIRM_NEW = "Start a new game?"
"""The New game confirmation's question (index.html has it too, for the first draw)."""
NEW_GAME_ASK = Ask(CONFIRM_NEW, "This game isn't finished yet: a new game throws it away.",
                   "New game")
"""The New game confirmation (index.html has its words too, for the first draw)."""
PLAY_OUT_NOTE = "The rest of this hand can't change anyone's points."
PLAYING_OUT = "Playing out the rest of the hand."
AT_HOST = "Connected. Waiting for the host…"
SOLO_AGAIN = "Your game goes on against the computers."


def plural(count: int, noun: str) -> str:
    """ "1 card", "2 cards"."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def join(names: Iterable[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def seat_name(seat: int, me: int, kinds: Sequence[str] = (),
              names: Sequence[str] = ()) -> str:
    """ "You" for the viewer's own seat, else the name its person chose ("Ana") or its
    place ("North", "North (computer)")."""
    if seat == me:
        return "You"
    kind = kinds[seat] if seat < len(kinds) else ""
    if seat < len(names) and names[seat]:
        return names[seat] + KIND_WORDS.get(kind, "")
    # another person without a name: never just a place, which at the solo table is you
    return SEAT_NAMES[seat] + KIND_WORDS.get(kind, PERSON_WORDS.get(kind, ""))


def suit_noun(letter: str) -> str:
    """ "spades" for "S"."""
    return Suit("CDHS".index(letter.upper())).noun


def cards_text(cards: Iterable[Card]) -> str:
    """ "the 2 of hearts, the 9 of clubs and the Ace of spades"."""
    return join(f"the {c.name}" for c in cards)


def reason_text(reason: str) -> str:
    """A reason as the tail of a card's name: "You must follow diamonds." → "you must …"."""
    reason = reason.rstrip(".")
    return reason[:1].lower() + reason[1:]


def taken_text(tricks: int, points: int) -> str:
    """A seat's take this hand: "2 tricks · +3" ("" before it has won a trick)."""
    if not tricks:
        return ""
    return plural(tricks, "trick") + (f" · +{points}" if points else "")


def waiting_for(seats: Iterable[int], me: int) -> str:
    """ "Waiting for West and North…" ("" when nobody else is awaited)."""
    others = [SEAT_NAMES[s] for s in seats if s != me]
    return f"Waiting for {join(others)}…" if others else ""


# --- prompts ---------------------------------------------------------------------------------

def pass_prompt(view: PlayerView) -> str:
    """ "Pass 3 cards to the left ← West." (or that there is no passing)."""
    if view.pass_to is None:
        return "No passing this hand."
    word = view.pass_direction.word
    where = "across" if view.pass_direction is PassDirection.ACROSS else f"to the {word}"
    return f"Pass 3 cards {where} {pass_arrow(view)} {seat_name(view.pass_to, view.seat)}."


def pass_arrow(view: PlayerView) -> str:
    """An arrow pointing where the passed cards go on this seat's page: ← to the seat on
    the left, ↑ across, → to the right ("" when nobody passes)."""
    if view.pass_to is None:
        return ""
    return {1: "←", 2: "↑", 3: "→"}[(view.pass_to - view.seat) % 4]


def pass_direction_chip(view: PlayerView) -> str:
    """The chip over the trick: "Hand 1: pass left ← West"."""
    if view.pass_to is None:
        return "No passing this hand"
    return (f"Hand {view.hand_number}: pass {view.pass_direction.word} {pass_arrow(view)} "
            f"{seat_name(view.pass_to, view.seat)}")


def chosen_text(count: int) -> str:
    """What choosing a card to pass says: "2 of 3 chosen." / "Three chosen: press Pass."."""
    return f"{count} of 3 chosen." if count < 3 else "Three chosen: press Pass."


def turn_prompt(view: PlayerView) -> str:
    """ "Your turn: lead a card." or "Your turn."."""
    return "Your turn: lead a card." if view.trick is None or not view.trick.cards \
        else "Your turn."


def hand_start(view: PlayerView) -> str:
    """Said when a new hand begins (after the summary): its number and what to do."""
    if view.pass_to is None:
        return f"Hand {view.hand_number}: no passing this time."
    return f"Hand {view.hand_number}. {pass_prompt(view)}"


def received_text(view: PlayerView) -> str:
    """ "You received the … from West." once the passes have been exchanged."""
    if not view.received:
        return ""
    giver = next(s for s in range(4) if pass_target(s, view.pass_direction) == view.seat)
    return f"You received {cards_text(view.received)} from {SEAT_NAMES[giver]}."


def hint_text(advice: Hint) -> str:
    """ "Hint: Pass the Q♠, …" — the cards named once: by the reason when it names them
    all, else in words before it; a card the normal player's rules wouldn't choose comes
    with the hard player's figures instead, as the coach gives them (``hearts.bots.hint``)."""
    cards, reason = advice.cards, advice.reason
    if not reason and advice.expected is not None and advice.other is not None \
            and advice.other_expected is not None:
        return (f"Hint: play the {cards[0].short}: {_expected(advice.expected)} expected for "
                f"the hand, {_expected(advice.other_expected)} with the "
                f"{advice.other.short}.")
    if reason and all(c.short in reason for c in cards):
        return f"Hint: {reason}"
    return f"Hint: {', '.join(c.name for c in cards)}. {reason}".strip()


def took_back(card: Card) -> str:
    return f"Took back your {card.name}. Your turn again."


def none_of_suit(suit: str) -> str:
    """The keyboard's answer to Shift+a suit's letter with no card of it in hand."""
    return f"You have no {suit_noun(suit)}."


def wait_for_turn(who: str) -> str:
    """A card refused while ``who`` is to move."""
    return f"Wait for your turn: {who} is playing."


def is_playing(who: str) -> str:
    return f"{who} is playing…"


def final_scores(scores: Sequence[int], me: int, order: Sequence[int]) -> str:
    return f"Final scores: {points_text(scores, me, order)}."


def hand_points(scores: Sequence[int], me: int) -> str:
    return f"Points this hand: {points_text(scores, me)}."


# --- house rules (the Settings, the rules text, the table's line) --------------------------

MOON_TITLE = "You shot the moon!"
MOON_ASK = ("You took every heart and the Queen of spades. Choose how it scores: "
            "26 points to each other player, or 26 points off your own score.")
MOON_PLUS = "26 to each other player"
MOON_MINUS = "26 off my score"


def house_rules_line(rules: Rules) -> str:
    """The table's short line, "House rules: J♦ −10 · to 50"; "" for the standard rules."""
    short = house_rules_short(rules)
    return f"House rules: {short}" if short else ""


_HOUSE_RULES: tuple[tuple[Callable[[Rules], bool], str, str], ...] = (
    (lambda r: r.qs_breaks_hearts, "Q♠ breaks hearts",
     "Playing the Queen of spades breaks hearts, like a heart."),
    (lambda r: not r.no_points_on_first_trick, "points on trick 1",
     "Hearts and the Queen of spades may be thrown on the first trick."),
    (lambda r: not r.must_break_hearts, "lead hearts any time",
     "A heart may be led at any time, broken or not."),
    (lambda r: r.jd_bonus, "J♦ −10",
     "The Jack of diamonds counts −10: whoever takes it has 10 points taken off their score "
     "for the hand. It plays no part in shooting the moon."),
    (lambda r: not r.shoot_the_moon, "no moon",
     "There is no shooting the moon: taking every point scores 26."),
    (lambda r: r.shoot_the_moon and r.moon_scoring is MoonScoring.SHOOTER_MINUS_26, "moon −26",
     "Shooting the moon takes 26 points off the shooter's score, and the others score nothing "
     "for the hand."),
    (lambda r: r.shoot_the_moon and r.moon_scoring is MoonScoring.SHOOTER_CHOOSES,
     "moon: shooter chooses",
     "Whoever shoots the moon chooses: 26 points to each other player, or 26 points off "
     "their own score."),
    (lambda r: r.pass_cycle is PassCycle.NO_HOLD, "pass every hand",
     "Every hand has a pass: left, right, across, then left again."),
    (lambda r: r.end_score != 100, "to {end}",
     "The game ends once a hand finishes with anyone at {end} points or more."),
)
"""Every house rule once: whether ``rules`` has it, its few words, its sentence."""


def house_rules_short(rules: Rules) -> str:
    """The house rules in a few words, "J♦ −10 · to 50" ("" for the standard rules)."""
    return " · ".join(short.format(end=rules.end_score)
                      for has, short, _ in _HOUSE_RULES if has(rules))


def house_rules_sentences(rules: Rules) -> tuple[str, ...]:
    """One sentence per house rule of ``rules`` (none for the standard rules)."""
    return tuple(sentence.format(end=rules.end_score)
                 for has, _, sentence in _HOUSE_RULES if has(rules))


def moon_waiting(name: str) -> str:
    """The prompt while another player chooses how its moon scores."""
    return f"{name} shot the moon and is choosing how it scores…"


def moon_result(scores: Sequence[int], shooter: int, me: int) -> str:
    """The summary's line for a moon, from the hand's scores (which scoring was used)."""
    minus = max(scores) <= 0  # shooter −26: nobody scores for the hand but the J♦
    plain = [(-26 if minus else 0) if seat == shooter else (0 if minus else 26)
             for seat in range(4)]
    jack = "" if list(scores) == plain else " The J♦ takes ten off its taker's score too."
    if shooter == me:
        return ("You shot the moon! 26 points come off your score." if minus
                else "You shot the moon! You score 0 and everyone else 26.") + jack
    who = seat_name(shooter, me)
    if minus:
        return (f"{who} shot the moon: 26 points off {who}'s score, nothing for the "
                f"others.{jack}")
    return f"{who} shot the moon: 0 for {who}, 26 for everyone else.{jack}"


# --- events ------------------------------------------------------------------------------

def points_text(points: Sequence[int], me: int, order: Iterable[int] = range(4)) -> str:
    """ "You 0, West 26, North 26, East 26" (seats in ``order``)."""
    return ", ".join(f"{seat_name(s, me)} {points[s]}" for s in order)


def _whose(seat: int, me: int, kinds: Sequence[str] = (), names: Sequence[str] = ()) -> str:
    return "your" if seat == me else f"{seat_name(seat, me, kinds, names)}'s"


def story_lines(story: HandStory, me: int, kinds: Sequence[str] = (),
                names: Sequence[str] = ()) -> tuple[tuple[str, str], ...]:
    """The hand's story for its summary, a (symbol, sentence) pair a line: the card's
    symbol shown, the sentence in words after it (so it is read in the same order);
    ``names``: the names people chose at a table with others."""
    lines = []
    if story.moon is None and story.stopped is not None:
        shooter, stopper = story.stopped
        lines.append(("☾\ufe0e", f"{seat_name(stopper, me, kinds, names)} stopped "
                                  f"{_whose(shooter, me, kinds, names)} moon."))
    if story.queen is not None:
        taker = seat_name(story.queen, me, kinds, names)
        lines.append(("Q♠\ufe0e", f"Queen of spades: {taker} took it, 13 points."))
    if story.jack is not None:
        taker = seat_name(story.jack, me, kinds, names)
        lines.append(("J♦\ufe0e", f"Jack of diamonds: {taker} took it, 10 points off."))
    taken = ", ".join(f"{seat_name(s, me, kinds, names)} {story.hearts[s]}" for s in range(4))
    lines.append(("♥\ufe0e", f"Hearts taken: {taken}."))
    return tuple(lines)


def totals_text(totals: Sequence[int], me: int, kinds: Sequence[str] = (),
                names: Sequence[str] = ()) -> str:
    """The summary's running totals: "Totals: You 12, West 30, North 8, East 28."."""
    return "Totals: " + ", ".join(f"{seat_name(s, me, kinds, names)} {totals[s]}"
                                  for s in range(4)) + "."


def told_text(event: Told, me: int, names: Sequence[str] = ()) -> str:
    """A sentence for a public event from seat ``me``'s side (``names``: the names people
    chose); "" for events that aren't told (a pass chosen, a deal, the passes exchanged:
    ``received_text`` says those from the seat's view)."""
    if isinstance(event, Played):
        return f"{seat_name(event.seat, me, (), names)} played the {event.card.name}."
    if isinstance(event, TookTrick):
        worth = f" ({plural(event.points, 'point')})" if event.points else ""
        return (f"{seat_name(event.seat, me, (), names)} "
                f"{'take' if event.seat == me else 'takes'} the trick{worth}.")
    if isinstance(event, Broken):
        return "Hearts are broken."
    if isinstance(event, Moon):
        return f"{seat_name(event.seat, me, (), names)} shot the moon!"
    if isinstance(event, HandOver):
        return f"Hand {event.hand} is over. Points this hand: " \
            f"{points_text(event.scores, me)}."
    if isinstance(event, GameWon):
        return "Game over. You win." if event.winner == me else \
            f"Game over. {seat_name(event.winner, me, (), names)} wins."
    return ""


# --- reading the table aloud (the T, L and S keys) ---------------------------------------

def _plays_text(trick: Trick, me: int) -> str:
    """ "West led the 2 of clubs, you played the King of clubs, …"."""
    parts = [f"{seat_name(seat, me)} {'led' if n == 0 else 'played'} the {card.name}"
             for n, (seat, card) in enumerate(trick.plays())]
    return ", ".join(parts[:1] + [p[0].lower() + p[1:] if p.startswith("You ") else p
                                  for p in parts[1:]])


def trick_text(view: PlayerView, shown: Trick | None = None) -> str:
    """The cards on the table now; ``shown``: a finished trick still on show."""
    if shown is not None and shown.cards:
        winner = shown.winner if shown.winner is not None else view.seat
        taker = "you take it" if winner == view.seat else \
            f"{seat_name(winner, view.seat)} takes it"
        return f"On the table: {_plays_text(shown, view.seat)}; {taker}."
    trick = view.trick
    if trick is None or not trick.cards:
        if view.my_turn:
            return "No cards on the table: it's your lead."
        if view.to_play is not None:
            return f"No cards on the table: {seat_name(view.to_play, view.seat)} leads."
        return "No cards on the table."
    tail = " Your turn." if view.my_turn else ""
    return f"On the table: {_plays_text(trick, view.seat)}.{tail}"


def last_trick_text(view: PlayerView) -> str:
    """The last finished trick of this hand."""
    if not view.tricks:
        return "No trick has been finished yet this hand."
    trick = view.tricks[-1]
    winner = trick.winner if trick.winner is not None else view.seat
    took = "You took it" if winner == view.seat else f"{seat_name(winner, view.seat)} took it"
    worth = f", {plural(trick.points, 'point')}" if trick.points else ""
    return f"Last trick: {_plays_text(trick, view.seat)}. {took}{worth}."


def last_trick_caption(view: PlayerView) -> str:
    trick = view.tricks[-1]
    return f"Last trick: {seat_name(trick.winner or 0, view.seat)} took it"


def scores_text(view: PlayerView) -> str:
    """Total scores and this hand's points so far."""
    me = view.seat
    totals = points_text(view.scores, me)
    taken = [f"{seat_name(s, me)} {view.hand_points[s]}" for s in range(4) if view.hand_points[s]]
    hand = f" This hand so far: {', '.join(taken)}." if taken else \
        " No points taken yet this hand."
    return f"Scores: {totals}.{hand}"


# --- the daily deal, game codes, the record (web.record) ---------------------------------
CODE_EMPTY = "Type the game code your friend gave you, like 7K2M-9QXA-B."
CODE_LENGTH = ("That isn't a game code: a code has 3 to 12 letters and digits, like "
               "7K2M-9QXA-B. Your game goes on.")
CODE_TYPO = ("That code has a typo: one of its letters or digits doesn't fit. Check it "
             "against your friend's. Your game goes on.")
AWAY_FROM_COMPUTERS = ("The daily deal and game codes are for games against the computers: "
                       "leave the private table first.")
HOUSE_RULES = "house rules"
RECORD_EMPTY = "No finished games yet: your record starts with your first one."
RECORD_NOTHING = "No game to draw yet: the chart starts once a hand is over."
COPIED = "Copied."
COPY_BY_HAND = "Your browser didn't let the page copy: the text is selected, copy it by hand."
DAILY_FIRST_ONLY = "Only your first daily deal of a day counts; this one goes in your history."
DAILY_LATE = ("A daily deal played after its day goes in your history; it doesn't count for "
              "that day or your streak.")
SHARE_LABEL = "Your result to share"
SHARE_BUTTON = "Share the result"
SHARED = "Shared."
SHARE_COPIED = "Copied, with the link to the same deal: paste it to your friends."
SHARE_SAID = {"shared": SHARED, "cancelled": "", "copied": SHARE_COPIED,
              "selected": COPY_BY_HAND}
"""What the Share button says after ``web.browser.Browser.share`` (a closed sheet: nothing)."""
STOPPED_MEANING = ("A moon stopped: you took at least one point card in a hand where one other "
                   "player took all the rest, ten or more of them.")

CHART_TABLE = "Totals after each hand"
HISTORY_LABEL = "Your games, newest first"
BY_LEVEL = "By computer level"
BY_LEVEL_HEADS = ("Level", "Games", "Won", "Win rate", "Points per hand")
LEVEL_NAMES = {"easy": "Easy", "normal": "Normal", "hard": "Hard"}


RECORD_DAMAGED = "Your record was damaged, so it starts again."
HOUSE_RULES_RESET = ("Your house rules could not be read, so the standard rules are back; "
                     "your other settings are kept.")


def record_reset(why: str) -> str:
    """The record couldn't be read at all (``why``: "unreadable", "far too large"…)."""
    return f"Your record was {why}, so it starts again."


def record_left_out(lost: int) -> str:
    """Some entries of the record couldn't be read; the rest was kept."""
    what = "1 entry" if lost == 1 else f"{lost} entries"
    return (f"{what} of your record could not be read and "
            f"{'was' if lost == 1 else 'were'} left out; the rest is kept.")


def end_label(score: int) -> str:
    """The chart's end-score line."""
    return f"end {score}"


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


def code_bad_characters(bad: Sequence[str]) -> str:
    shown = " ".join(bad[:5])
    return (f"That isn't a game code: it has {shown}, and a code has only letters and "
            "digits, like 7K2M-9QXA-B. Your game goes on.")


def ordinal(place: int) -> str:
    """ "1st", "2nd", "3rd", "4th"."""
    return str(place) + {1: "st", 2: "nd", 3: "rd"}.get(place, "th")


def day_text(day: Any) -> str:
    """A ``datetime.date`` as people read it: "1 December 2026"."""
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


def short_day(day: Any) -> str:
    """ "1 Dec 2026"."""
    return f"{day.day} {_MONTHS[day.month - 1][:3]} {day.year}"


def code_line(code: str) -> str:
    return (f"Game code {code}: a friend who plays it (More, then Game code) gets the same "
            "deals.")


def daily_badge(day: Any) -> str:
    return f"Daily deal, {short_day(day)}"


def code_badge(code: str) -> str:
    """The felt's chip for a game started from a friend's code."""
    return f"Game code {code}"


def daily_start(day: Any, level: str) -> str:
    """Said as a daily starts: its day and the level it is played at (``web.daily``)."""
    return f"The daily deal of {day_text(day)}, against {level} computers."


def code_start(code: str, house_rules: bool = False) -> str:
    rules = ", under the same house rules" if house_rules else ""
    return f"Game {code}: the same deals as your friend's{rules}, against the computers."


def share_text(day: Any, total: int, place: int, streak: int, undos: int = 0,
               hints: int = 0, link: str = "") -> str:
    """The daily's result to paste to friends: the score and the place, never a card; the
    help taken, if any ("… · 1 undo, 2 hints"); and the link that plays the same deal."""
    helped = ", ".join(plural(n, noun) for n, noun in ((undos, "undo"), (hints, "hint")) if n)
    return (f"Hearts daily {day.isoformat()}: {plural(total, 'point')}, {ordinal(place)} of 4"
            f" · streak {streak}" + (f" · {helped}" if helped else "")
            + (f" — play it: {link}" if link else ""))


def daily_link_bad(text: str) -> str:
    """The address asked for a daily deal with something that isn't a day."""
    shown = text.strip()[:20] or "nothing"
    return (f"That link asks for the daily deal of “{shown}”, which isn't a day: a daily "
            "link ends in ?daily= and a date, like ?daily=2026-12-01. Your game goes on.")


def daily_ask(day: Any, today: Any, level: str) -> Ask:
    """The New game confirmation, for the daily deal (the menu's, or a link's) asked for
    with a game under way: it names the daily, and the level it is played at."""
    title = "Start today's daily deal?" if day == today else \
        f"Play the daily deal of {day_text(day)}?"
    return Ask(title, "This game isn't finished yet: the daily deal throws it away. Everyone "
               f"plays the daily against {level} computers, so results compare.",
               "Play the daily deal")


def daily_level_note(level: str) -> str:
    """Settings, during a daily deal: why the level chosen there doesn't change it."""
    return (f"This daily deal is played against {level} computers, as everyone's is: the "
            "level chosen here is for your other games.")


def daily_link_early(day: Any) -> str:
    """The address asked for the daily deal of a day still to come."""
    return (f"The daily deal of {day_text(day)} isn't out yet: its link plays from that day "
            "on. Your game goes on.")


def streak_text(count: int) -> str:
    if count == 0:
        return "Daily streak: none yet — play today's daily deal to start one."
    if count == 1:
        return "Daily streak: 1 day. Play the daily deal tomorrow to make it 2."
    return f"Daily streak: {count} days in a row."


def game_line(day: Any, level: str, rules: str, daily: bool, total: int, place: int,
              hands: int) -> str:
    """One finished game in the history list."""
    parts = [short_day(day), "daily deal" if daily else f"{level} computers"]
    if rules:
        parts.append(rules)
    parts.append(f"{plural(total, 'point')}, {ordinal(place)}")
    parts.append(plural(hands, "hand"))
    return " · ".join(parts)


def chart_title(totals: Sequence[int], names: Sequence[str], over: bool) -> str:
    """The Record's chart heading: who won the game chosen (or leads the one under way),
    which its line in the list doesn't say."""
    low = min(totals)
    first = [names[seat] for seat, total in enumerate(totals) if total == low]
    who = " and ".join(first)
    points = plural(low, "point")
    if over:
        if len(first) > 1:
            return f"{who} shared the win with {points}."
        return f"{who} won with {points}."
    lead = "lead" if len(first) > 1 or first == ["You"] else "leads"
    return f"{who} {lead} so far with {points}."


def current_line(hands: int) -> str:
    return f"This game, under way · {plural(hands, 'hand')} so far"


def tallies_text(games: int, moons: int, stopped: int, queens: int) -> str:
    return (f"Over the {plural(games, 'game')} of your record: {plural(moons, 'moon')} shot, "
            f"{plural(stopped, 'moon')} stopped, the Queen of spades taken "
            f"{plural(queens, 'time')}.")


def chart_label(names: Sequence[str], hands: int) -> str:
    return (f"Chart of the totals of {join(names)} after each of {plural(hands, 'hand')}. "
            "The same figures are in the table that follows.")
# --- the coach (``hearts.coach``: a hand reviewed by the hard player) ------------------------

REVIEW_HAND = "Review this hand"
COACH_NO_HAND = "No hand of this game is finished yet, so there is nothing to review."
COACH_NOT_KEPT = ("The last hand's cards weren't kept on this device, so it can't be "
                  "reviewed. The next hand you finish can be.")
COACH_FAILED = "The coach couldn't review this hand."
COACH_WORKING = "The coach is reviewing this hand…"
COACH_GOES_ON = "The review carries on if you close this window."
COACH_PASS_HEAD = "Your pass"
COACH_PLAYS_HEAD = "Your plays, trick by trick"
COACH_NO_PASS = "Nobody passes on this hand."
COACH_ABOUT = ("The hard computer player looked at each of your decisions with only what "
               "you could see then, and worked out the points you could expect for the "
               "hand with each card.")


def _card(card: Card) -> str:
    """A card in the coach's sentences: "Q♠" (the suit drawn as text, never an emoji)."""
    return card.short + "\ufe0e"


def _points(value: float) -> str:
    """ "1 point", "2.5 points" (one decimal, none when whole)."""
    text = f"{value:.1f}".removesuffix(".0")
    return f"{text} point{'' if text == '1' else 's'}"


def coach_title(hand_number: int) -> str:
    return f"Coach: hand {hand_number}"


def coach_progress(trick: int, total_tricks: int = 13) -> str:
    """ "Reviewing trick 5 of 13…" (trick 0: the pass)."""
    if trick == 0:
        return "Reviewing your pass…"
    return f"Reviewing trick {trick} of {total_tricks}…"


def coach_lost(lost: float) -> str:
    """The hand's total: "Points lost to mistakes: 3.5"."""
    if lost < 0.05:
        return "Points lost to mistakes: none. Well played!"
    return f"Points lost to mistakes: about {_points(lost)}."


def coach_note(lost: float, mistakes: int) -> str:
    """The coach's line in the hand summary once its review is done."""
    if not mistakes:
        return "The coach found no costly mistakes in this hand."
    return (f"The coach found {plural(mistakes, 'costly play')}: about {_points(lost)} "
            "lost to mistakes.")


def coach_reason(kind: str, card: Card, best: Card, *, led: bool, cost: float,
                 seat: int | None, points: int, trick: int) -> str:
    """One sentence saying why a flagged play cost points (``hearts.coach`` kinds)."""
    verb = "Leading" if led else "Playing"
    if kind == "queen_dropped" and seat is not None:
        return f"{verb} the {_card(card)} let {SEAT_NAMES[seat]} drop the Q♠\ufe0e on you."
    if kind == "own_queen":
        return f"The Q♠\ufe0e won the trick, so its {plural(points, 'point')} were yours."
    if kind == "took_points":
        return f"{verb} the {_card(card)} won trick {trick} and its {plural(points, 'point')}."
    if kind == "duck" and seat is not None:
        taken = f"trick {trick} and its {plural(points, 'point')}" if points > 0 else \
            f"trick {trick} and the lead"
        return f"With the {_card(best)}, {SEAT_NAMES[seat]} would have taken {taken}."
    if kind == "could_drop" and seat is not None:
        return f"You could have dropped the {_card(best)} on {SEAT_NAMES[seat]}'s trick."
    if kind == "kept_card":
        return f"Keeping the {_card(best)} took {plural(points, 'point')} in trick {trick}."
    return (f"The hard player expected about {_points(cost)} fewer for you with the "
            f"{_card(best)}.")


def coach_play(trick: int, card: Card, best: Card, *, forced: bool, gap: str,
               cost: float, value: float, best_value: float) -> str:
    """A play of the review with the hard player's two figures, one phrase for each size of
    gap (``hearts.coach.gap``): "Trick 4: the 7♦ cost about 1 point: about 3.7 points
    expected for the hand with it, about 2.7 points with the hard player's card, the A♦."
    (the reason, if costly, is said after it)."""
    head = f"Trick {trick}: the {_card(card)}"
    if forced:
        return f"{head}, the only card you could play."
    expected = _expected(value)
    if best == card or gap == "even":
        return f"{head}, as good as any ({expected} expected for the hand)."
    other = _expected(best_value)
    if gap == "costly":
        return (f"{head} cost about {_points(cost)}: {expected} expected for the hand with "
                f"it, {other} with the hard player's card, the {_card(best)}.")
    how = "nearly as good as" if gap == "close" else "a little worse than"
    return (f"{head}, {how} the {_card(best)}: {expected} expected for the hand "
            f"with it, {other} with the {_card(best)}.")


def _expected(value: float) -> str:
    """ "about 3.4 points", "no points" (an expected score for the hand)."""
    return "no points" if abs(value) < 0.05 else f"about {_points(value)}"


def coach_pass(passed: Sequence[Card], suggested: Sequence[Card], *, same: bool,
               gap: str, cost: float, value: float, best_value: float) -> str:
    """The pass of the review, compared with the hard player's own three, with the same
    phrases for the same sizes of gap as the plays (``hearts.coach.gap``)."""
    mine = join(_card(c) for c in passed)
    if same:
        return f"You passed {mine}: the hard player would pass the same three."
    theirs = join(_card(c) for c in suggested)
    head = f"You passed {mine}; the hard player would pass {theirs}."
    figures = f"{_expected(value)} expected for the hand with yours, " \
              f"{_expected(best_value)} with its three"
    if gap == "costly":
        return (f"{head} Played out from the deal, yours cost about {_points(cost)}: "
                f"{figures}.")
    if value < best_value:
        return (f"{head} Played out from the deal, yours did better, by about "
                f"{_points(best_value - value)}: {figures}.")
    if gap == "even":
        return f"{head} Played out from the deal, yours did as well: {figures}."
    how = "nearly as well" if gap == "close" else "a little worse"
    return f"{head} Played out from the deal, yours did {how}: {figures}."


# --- fair tables: what the audit found -------------------------------------------------------
FAIR_HAND = ("Every player's device checked this hand: the deal, the passes and every card "
             "were fair.")
FAIR_VOID = ("This hand doesn't count, and the table has closed: press Play online to find "
             "a new table.")
FAIR_KIND = "Fair table: no one can see your cards"
"""Where the page sits, at a table whose people's pages deal among themselves."""


def hosted_kind(host: str) -> str:
    """Where the page sits, at a friend's private table, which the host's page runs: it
    holds every hand, and the header says so in few words (it must fit a phone's toolbar).
    ``host``: the name its person chose ("" for none)."""
    return f"{host}'s device sees all hands" if host else "The host's device sees all hands"


HOSTING_PRIVATE = "Hosting a private table"
"""The same, on the host's page."""
HOSTING_KIND = "You and the computers, till a person comes"
"""Where the page sits when the lobby left it alone: its own game, which nobody else joins."""
FAIR_DEALING = "Shuffling and dealing: nobody else sees your cards."
FAIR_AUDITING = "Checking the hand: every player's device makes sure it was fair…"
FAIR_WAITING = "Waiting for the other players…"
FAIR_NOT_NOW = "That can't be done now at this table."
FAIR_PASS_THREE = "Choose exactly three different cards of your own to pass."
FAIR_STOPPED = ("A card didn't open and nobody could be blamed for it, so this hand doesn't "
                "count and the table has closed.")
FAIR_OVER = "Game over. Press Play online to find a new fair table."
FAIR_WHO_LEADS = ("Waiting for whoever holds the 2 of clubs to lead it: only they know "
                  "who that is.")
FAIR_NOBODY = ("The other players didn't all reach the fair table, or left it before the "
               "seats were drawn, so it couldn't start. Press Play online to look again.")
FAIR_LEFT = "You left the fair table: the hand under way doesn't count for anyone."
FAIR_DRAW_BROKEN = ("Another page broke the draw for the seats: it showed something other "
                    "than what it had promised, so the fair table couldn't start. Press Play "
                    "online to look again.")
FAIR_REDRAW_BROKEN = ("After a player left or came, the pages at the table couldn't agree on "
                      "who sits where or on the scores, so the table has closed. Press Play "
                      "online to look again.")

FAIR_LATE = ("A table is under way: you sit down at it between two hands, in a seat a "
             "computer plays now. It's a fair table: nobody else will see your cards. "
             "Close this to stop waiting.")
"""The dialog while a person who came later waits to be let in."""
FAIR_LATE_BROKEN = ("The table you came to couldn't seat you: its pages didn't agree on the "
                    "draw for the seats. Press Play online to look again.")
FAIR_LATE_NOBODY = ("The table you came to didn't let you in: its hand never ended, or its "
                    "pages went. Press Play online to look again.")


def _page_of(seat: int, me: int) -> str:
    """ "your device", or "North's device": where the person at ``seat`` plays."""
    return "your device" if seat == me else f"{SEAT_NAMES[seat]}'s device"


def fair_handed_over(gone: Sequence[int], players: Sequence[int], me: int,
                     hand: str = "") -> str:
    """A page left a fair table and it goes on: a computer in each of its seats, played by
    one of the pages still there (``players``: by seat, whose page holds its keys);
    ``hand``: what the hand it left counts (``fair_left_hand``), or ""."""
    seats = [f"{SEAT_NAMES[seat]} (on {_page_of(players[seat], me)})" for seat in gone]
    left = join(SEAT_NAMES[seat] for seat in gone)
    if hand:
        return (f"{left} left the table. A computer plays {join(seats)} now. {hand} "
                "The next hand is dealt.")
    return (f"{left} left the table. A computer plays {join(seats)} now. The next hand is "
            "dealt; the scores stay as they were.")


def fair_came(came: Sequence[int], me: int) -> str:
    """People came to a table under way and took computers' seats (``came``), from the hand
    about to be dealt."""
    if list(came) == [me]:
        return (f"You sit at {SEAT_NAMES[me]}, where a computer played. The scores so far "
                "stay, and nobody else can see your cards.")
    return (f"{join(SEAT_NAMES[seat] for seat in came)}: a person plays there now, where a "
            "computer did. The scores stay as they were, and nobody else can see your cards.")


FAIR_OWN_STEP = ("Your page's own step of the deal didn't check out against the numbers it "
                 "was sent, so it can't go on and can't tell who spoiled them. This hand "
                 "doesn't count, and the table has closed.")
def looking_text(people: int, seconds: float, met: bool = True) -> str:
    """Play online's line while it looks: who is here, and when the computers fill in
    (``met``: the players' meeting point answered; until then there is no wait to count)."""
    if not met:
        return "Looking for players… Reaching the place where players meet."
    here = "You're the only one here so far" if people <= 1 else \
        f"{people} players here, you included"
    wait = max(0, round(seconds))
    return (f"Looking for players… {here}. Two or more people make a fair table, where "
            "nobody can see another person's cards, and a computer takes each seat nobody "
            f"fills. If you're still alone in {wait} s, you play the computers until someone "
            "comes; they then sit down with you from the next hand, the scores as they were.")


ONLINE_HOSTED = ("Nobody else was looking, so you're playing the computers. Whoever comes "
                 "looking sits down with you when this hand ends, in a computer's seat, with "
                 "the scores as they are: from then on it's a fair table, where nobody can "
                 "see another person's cards.")
FRIEND_SEATED = ("You're at a friend's private table: their page runs the game and deals, so "
                 "it could see every hand. Leave the table to go back to your own game "
                 "against the computers.")
FAIR_SEATED = ("This is a fair table: the players' devices deal among themselves, and "
               "nobody else, not even whoever invited you, can see your cards.")


def fair_seated(players: Sequence[int], me: int) -> str:
    """The dialog at a fair table: nobody sees a person's cards, and each computer's are
    known to the page that plays it. ``players``: by seat, the seat of the person whose
    page holds its keys (a computer's seat: whose page plays it)."""
    played = [(seat, page) for seat, page in enumerate(players) if page != seat]
    if not played:
        return FAIR_SEATED
    if len(played) == 1:
        seat, page = played[0]
        return (f"{FAIR_SEATED} The computer at {SEAT_NAMES[seat]} plays on "
                f"{_page_of(page, me)}, the only one that knows its cards.")
    each = join(f"{SEAT_NAMES[seat]} on {_page_of(page, me)}" for seat, page in played)
    return (f"{FAIR_SEATED} Each computer plays on one player's device, the only one that "
            f"knows its cards: {each}.")

_CHEATS = {
    Cheat.BAD_DECK: "sent a deck that wasn't 52 different cards",
    Cheat.SHUFFLE: "changed the deck while shuffling it",
    Cheat.LOCK: "changed cards while locking the deck",
    Cheat.OPEN: "spoiled a card while opening it to its player",
    Cheat.PASS_NOT_OWN: "tried to pass cards they weren't dealt",
    Cheat.BLIND: "spoiled the cards passed to them",
    Cheat.FALSE_PASS: "passed cards other than the ones they chose",
    Cheat.NOT_DEALT: "played a card that wasn't dealt or passed to them",
    Cheat.BAD_KEY: "played a card with a key that doesn't open it",
    Cheat.OUT_OF_TURN: "played or sent a message out of turn",
    Cheat.NOT_2C: "led before the 2 of clubs",
    Cheat.REVOKE: "didn't follow suit",
    Cheat.FIRST_TRICK: "played points on the first trick while holding other cards",
    Cheat.UNBROKEN: "led a heart before hearts were broken, holding other suits",
    Cheat.BAD_KEYS: "showed keys at the end that aren't the ones they played with",
    Cheat.NO_KEYS: "didn't show their keys at the end of the hand",
    Cheat.FALSE_ALARM: "said a card of theirs didn't open, and it did",
    Cheat.MALFORMED: "sent a message the fair deal doesn't have",
    Cheat.MARKED: "sent a number no card can be, to mark cards and follow them",
    Cheat.UNSIGNED: "sent a message without its page's signature",
    Cheat.FALSE_ECHO: "said it saw messages other than the ones it was sent",
    Cheat.EQUIVOCATED: "sent different pages different messages",
    Cheat.NO_EVIDENCE: ("abandoned the hand: when the pages' records differed, it wouldn't "
                        "show the messages it had been sent"),
    Cheat.FALSE_DIGEST: ("said its record of the hand was other than the one every player's "
                         "device holds"),
    Cheat.NO_DIGEST: ("stopped the hand's check: it never said what it saw once every card "
                      "was played"),
    Cheat.STEERED: "played the computer it was given its own way, not as the computer plays",
    Cheat.RESUMED_ELSEWHERE: ("came back to the hand with other cards or keys than the ones "
                              "it was dealt, and was refused"),
}


def fair_gone_text(seat: int, me: int, after_deal: bool = False) -> str:
    """A page left a fair table: its keys went with it, so the hand can't be finished."""
    if after_deal:
        return (f"{seat_name(seat, me)}'s page left the hand after the deal, taking its keys: "
                "the hand can't be finished, so it doesn't count, and the table has closed.")
    return (f"{seat_name(seat, me)}'s page left. Nobody else holds its cards or its keys, so "
            "this hand can't be finished: it doesn't count, and the table has closed.")


FAIR_STALLED = ("The table waited more than a minute and nothing came. A page that holds "
                "back its messages, or sends them to only some pages, looks the same from "
                "here as one whose connection failed, so nobody is named: this hand doesn't "
                "count and the table has closed.")
"""A fair table waited beyond any turn: neutral, since a page that sends its card to two
pages but not to the next player would otherwise have that player blamed."""


# --- fair tables: what a hand stopped after the deal costs (docs/protocol.md) --------------
def fair_charged(seat: int, me: int) -> str:
    """A page named in a hand dealt takes all its points: stopping a hand never pays."""
    who = seat_name(seat, me)
    return (f"{'You take' if seat == me else who + ' takes'} all 26 points of this hand, and "
            "the table has closed: press Play online to find a new table.")


def fair_charged_steered(seat: int, me: int) -> str:
    """The replay of a scored hand found a computer played otherwise than its bot."""
    who = seat_name(seat, me)
    return (f"{'You take' if seat == me else who + ' takes'} all 26 points of that hand "
            "instead, and the table has closed: press Play online to find a new table.")


def fair_disagreement_counted(seats: Sequence[int], me: int) -> str:
    """The records differ after the last card, and the signatures name nobody: every card
    was played and shown, so the hand counts as played."""
    return (f"{join(seat_name(s, me) for s in seats)} saw different messages from yours, so "
            "nobody can be named and no keys were shown. Every card of this hand was played "
            "and checked, so it counts as played; the table has closed.")


def fair_gone_counted(seat: int, me: int) -> str:
    """A page left after the hand's last card: the cards played still count."""
    return (f"{seat_name(seat, me)} left after the hand's last card. Every card was played "
            "and checked, so the hand counts as played.")


FAIR_CLOSED_AFTER = ("The hand before counts as it was scored, and the table has closed: "
                     "press Play online to find a new table.")

FAIR_STALLED_COUNTED = ("The table waited more than a minute for the hand's check and "
                        "nothing came, so nobody is named. Every card of this hand was "
                        "played and checked, so it counts as played; the table has closed.")


def disagreement_text(seats: Sequence[int], me: int, kinds: Sequence[str] = ()) -> str:
    """The pages' records differ: someone sent different pages different things (or sent a
    false digest); no page shows its keys."""
    return (f"{join(seat_name(s, me, kinds) for s in seats)} saw different messages from "
            "yours, so nobody can be named, and no page showed its keys. This hand doesn't "
            "count.")


def fault_text(fault: Fault, me: int, kinds: Sequence[str] = ()) -> str:
    """What the audit found, naming the seat: "West cheated: changed the deck while …"."""
    what = _CHEATS[fault.kind]
    if fault.kind is Cheat.REVOKE and fault.card is not None and fault.suit is not None:
        suit = Suit(fault.suit).noun
        what = f"played the {fault.card.name} when {suit} were led, while holding {suit}"
    elif fault.kind in (Cheat.FIRST_TRICK, Cheat.UNBROKEN, Cheat.NOT_2C) and fault.card:
        what += f" (the {fault.card.name})"
    return f"{seat_name(fault.seat, me, kinds)} cheated: {what}."


# --- fair tables: a hand left after the deal (docs/protocol.md, "A page gone") ------------
def fair_left_hand(seat: int, hand: Sequence[int], me: int, names: Sequence[str] = ()) -> str:
    """A page left the hand under way (or reloaded): it counts as far as it went, and the
    seat that left takes every point nobody had taken yet (``played.left_points``).
    Leaving is no cheat: nobody is named."""
    takes = "you take" if seat == me else f"{seat_name(seat, me, (), names)} takes"
    points = "1 point" if hand[seat] == 1 else f"{hand[seat]} points"
    text = ("The hand counts as far as it went: everyone keeps the points of the tricks "
            f"they took, and {takes} every point nobody had taken yet ({points} in all).")
    nxt = (seat + 1) % len(hand)
    if hand[seat] == 25 and hand[nxt] == 1 \
            and all(hand[s] == 0 for s in range(len(hand)) if s not in (seat, nxt)):
        other = "you take" if nxt == me else f"{seat_name(nxt, me, (), names)} takes"
        text += f" Only a moon shot gives one player all 26, so {other} the last one."
    return text


# --- tables with other people: the session, invites and codes ----------------------------
TABLE_BACK = ("Your private table is back where it was. The computer plays your friends' "
              "seats until they join again: send each of them the new invite link for their "
              "seat. Or carry the game on by yourself against the computers.")
HOST_LOST = "The connection to the host was lost."
PLAY_ONLINE = "Play online"
PLAY_WITH_FRIENDS = "Play with friends"
END_TABLE = "End the table for everyone"
LEAVE_TABLE = "Leave the table"
STOP_LOOKING = "Stop looking"
BACK_TO_TABLE = "Back to the table"
CLOSE = "Close"
YOU_LEFT = "You left the table."
NOT_BACK = ("Your seat at this table couldn't be given back: the computer has taken it, or "
            "the table's page doesn't know this one.")
BACK_OFFER = ("This page was at a table before it reloaded. Your seat waits for you a few "
              "seconds: go back now to play on with the same cards and scores.")
BAD_INVITE = "This invite can't be used. Ask for a new one and paste it here."
NO_TABLE = ("No table answered this code: it may have closed. Check the code with the person "
            "who sent it: their table must be open and shared by code, on the same version "
            "of the game as yours (if in doubt, both of you reload).")


CLOSED_BY_YOU = "You closed the table."


def table_closed(*, told: bool, solo: bool) -> str:
    """What the host's page says once it closed its table (``told``: people sat at it and
    their pages say so too; ``solo``: the game can go on here, against the computers)."""
    return (CLOSED_BY_YOU + (" The other players' pages say the host closed it."
                                       if told else "")
            + (" You can carry the game on by yourself against the computers." if solo
               else ""))


INVITED = "invited: waiting for their answer code"
RELAY_ADDRESS = ("A relay's address starts with wss:// (or ws:// on your own network); "
                 "separate several with commas.")
MAKING_ANSWER = "Your page is making your answer code…"
SEND_ANSWER_BACK = ("Send this answer code back to the person who invited you. The table "
                    "opens here once they paste it.")
LOOKING_FOR_TABLE = ("Looking for the table {code}… Its host gives you a seat as soon as "
                     "it's found. Close this to stop looking.")
TURN_ADDRESS = "A TURN server's address starts with turn: or turns:."
HOST_GONE = ("The host's page closed or reloaded, so this table has closed. If the host opens "
             "it again, they can send you a new invite to sit back down.")
SEATED_ALREADY = ("You're already playing at a table. To play elsewhere, leave it first "
                  "(Leave the table, below).")


def no_relay(relays: list[str]) -> str:
    """Play online or a table's code found no relay that answered (their addresses)."""
    names = ", ".join(relay.split("://", 1)[-1].rstrip("/") for relay in relays) or "none set"
    return (f"Couldn't reach the place where players meet ({names}), so no players can be "
            "found. Check your connection, or choose another relay just below (Where players "
            "meet), then try again.")

SEAT_COMING = ("You have a seat at this table from its next hand. The hand under way is being "
               "played out, with the computer in your seat.")
TABLE_CODE_TYPO = "This code has a typo: check it with the person who sent it."
TABLE_CODE_SHORT = "A table's code has ten letters and digits, like K7QXM-3TNAW."
HOST_LOBBY = "Invite your friends, then start the game: both are under Play with friends."
GUEST_LOBBY = "You're at the table. The host will start the game."


# --- the error reporter: a problem the table didn't expect -----------------------------------
CRASH_NOW = ("The table ran into a problem it didn't expect. You can copy the details for a bug "
             "report, start a new game, or close this message and try to carry on.")
CRASH_BEFORE_RESTORE = ("The table ran into a problem last time. You can go back to the position "
                        "just before it, or carry on from where the game was saved.")
CRASH_BEFORE_KEPT = "The table ran into a problem last time. Your game was kept as it was saved."
CRASH_COPIED = "Copied. Paste it into your bug report."
CRASH_NOT_COPIED = "Your browser didn't allow copying: the details are selected below."
COPY_SELECTED = "Selected: copy it with your device's Copy command."


# --- what is kept: settings, stats, the saved game, storage ----------------------------------
SETTINGS_RESET = "Some settings were unreadable and were reset."
STATS_RESET = "Your stats were damaged, so they start again."
SAVE_DAMAGED = "The saved game was damaged, so a new game was started."


def settings_reset(why: str) -> str:
    """``why``: what was wrong with them ("unreadable", "far too large", …)."""
    return f"Your settings were {why}, so they were reset."


def stats_reset(why: str) -> str:
    return f"Your stats were {why}, so they start again."


def stats_part_reset(lost: Sequence[str]) -> str:
    """``lost``: the parts that were reset ("best score", "total time")."""
    return (f"Your {' and '.join(lost)} could not be read and "
            f"{'was' if len(lost) == 1 else 'were'} reset; the rest of your stats are kept.")


def save_reset(why: str) -> str:
    return f"The saved game was {why}, so a new game was started."


def save_part_reset(lost: Sequence[str]) -> str:
    return (f"Part of the saved game could not be read, so {join(lost)} "
            f"{'was' if len(lost) == 1 else 'were'} reset. The game goes on.")
STORAGE_LOST = ("Your browser isn't letting this page store anything, so the game plays but your "
                "progress and stats won't be kept.")
STORAGE_FULL = ("Your browser's storage is full, so the game plays on but your progress from here "
                "won't be kept.")


# --- invite and answer codes: why one doesn't read -------------------------------------------
CODE_NO_DETAILS = "The browser's connection details were incomplete."
CODE_BAD_ADDRESS = "A network address can't be put in a code."
CODE_BAD_PASSWORD = "The browser's connection password can't be put in a code."
CODE_NO_FINGERPRINT = "The browser's certificate fingerprint is missing."
CODE_NO_NETWORK = ("No network address was found, so no one could connect. Check that this device "
                   "is on a network.")
CODE_TOO_LONG = "The network addresses are too long to fit in a code."
CODE_INCOMPLETE = "This code is incomplete: copy it again in full."
CODE_DAMAGED_OR_INCOMPLETE = "This code is damaged or incomplete: copy it again in full."
CODE_OTHER_VERSION = ("This code comes from a different version of the game: both of you should "
                      "reload the page, then make a new code.")
CODE_NO_ADDRESS = "This code has no network address in it."
CODE_DAMAGED = "This code is damaged: copy it again in full."
CODE_EXPIRED = "This invite has expired: ask the host for a new one."
CODE_FROM_FUTURE = ("This invite's time is far ahead of this device's clock: check the clock, or "
                    "ask the host for a new invite.")
def code_missing(what: str) -> str:
    """``what``: "invite" or "answer"."""
    return f"Paste the {what} code first."


def code_not_one(what: str) -> str:
    return f"That isn't an {what} code: it has characters or a length a code never has."


def code_other_kind(other: str, what: str) -> str:
    """``other``: "an answer" or "an invite", the kind pasted; ``what``: the kind wanted."""
    return f"That is {other} code, not an {what} code."


def answer_invite_gone(seat: str) -> str:
    return (f"That answer is for an invite to {seat} that was replaced or already used: make "
            "a new invite for that seat.")


def answer_for_other_seat(seat: str) -> str:
    return f"That answer is for {seat}'s invite: paste it there."


def invited_note(seat: str, stun: str | None, step: str) -> str:
    """The guest's dialog on an invite: the seat, the STUN server its page asks (None: the
    host is on this network) and the step it is at."""
    where = (f" The host connects across the internet, so your page asks Google's public STUN "
             f"server ({stun}) for your public address; it learns nothing about the game."
             if stun is not None else "")
    return f"You're invited to a private Hearts table, to sit at {seat}.{where} {step}"


CODE_OTHER_TABLE = ("This answer code belongs to another table (or an older one of yours): the "
                    "friend should answer your latest invite.")


# --- a table one page runs: what its host's page answers and says ----------------------------
REACTIONS = {"nice": "Nice one!", "oops": "Oops!", "wow": "Wow!", "thanks": "Thanks!",
             "hurry": "Your turn, friend!", "gg": "Good game!"}
"""A table's preset reactions, by the key a page sends (no free text crosses the table)."""
TABLE_NOT_STARTED = "The game hasn't started yet."
TABLE_GAME_OVER = "The game is over."
TABLE_NEXT_HAND_WAITS = "The next hand starts when everyone has seen the scores."
TABLE_NOT_WAITING = "The table isn't waiting for that."
GUEST_FLOODED = ("Your page sent too many messages, so the host's table let the computer take "
                 "your seat.")
GUEST_NOT_UNDERSTOOD = ("The host's table didn't understand that message. Reloading the page may "
                        "help.")
GUEST_LEFT = "You left the table."
HOST_OVER = "Game over. Press New game to deal again for the same table."
GUEST_OVER = "Game over. The host can start a new game."


# --- online tables: the dialog's moments and the turn clock (issue 38) ----------------------
TABLE_WAITS_FOR_YOU = ("Your table is ready and waits for you: finish typing, then close this "
                       "to play.")
"""The dialog found a table while the person typed in one of its fields: it stays open."""
PLAY_ONLINE_AGAIN = "Look for players again"
TRY_AGAIN = "Try again"
NOT_TOLD_SEATED = "You're at this table now. Leave it to play elsewhere."


def host_closed(host: str) -> str:
    """A guest's page: the host ended the table (``host``: their name, "" for none)."""
    return f"{host} closed the table." if host else "The host closed the table."


def left_the_table(who: str, seat: int) -> str:
    """Everyone at a host's table: a person left it (``who``: their name, "" for none)."""
    return (f"{who or SEAT_NAMES[seat]} left the table: a computer plays "
            f"{SEAT_NAMES[seat]} now.")


def time_up(what: str, cards: Sequence[Card]) -> str:
    """The person's time ran out and a move was made for them: ``what`` is "pass" or
    "play", ``cards`` what went."""
    if what == "pass":
        return f"Time's up: {join(card.short for card in cards)} were passed for you."
    return f"Time's up: the {cards[0].short} was played for you."


def turn_clock(seconds: int) -> str:
    """The turn clock beside the prompt: "25 s left"."""
    return f"{seconds} s left"


def next_hand_in(seconds: int) -> str:
    """The hand summary's ready countdown: the table moves on by itself when it ends."""
    return f"Moving on to the next hand in {seconds} s."


# --- tables of people: leaving, coming back, names (issue 38) --------------------------------
def fair_alone(gone: Sequence[int], me: int, hand: str = "",
               names: Sequence[str] = ()) -> str:
    """Every other person left a fair table: this person carries the game on against the
    computers from the next hand; the next person who comes takes a seat (``hand``: what
    the hand they left counts, ``fair_left_hand``, or "")."""
    left = join(seat_name(seat, me, (), names) for seat in gone) or "The others"
    counted = f" {hand}" if hand else ""
    return (f"{left} left the table.{counted} You carry on against the computers from the "
            "next hand. A person who comes takes a computer's seat from the hand after they "
            "come.")


def fair_back(hand: str = "") -> str:
    """This person's tab reloaded and took its seat back at a fair table (``hand``: what
    the hand it left counts, ``fair_left_hand``, or "")."""
    if hand:
        return f"You're back at your seat. {hand} The next hand is dealt."
    return "You're back at your seat, with the scores as they were."


def fair_returned(seats: Sequence[int], me: int, names: Sequence[str] = (),
                  hand: str = "") -> str:
    """People whose page reloaded came back to their seats at a fair table (``hand``: what
    the hand they left counts, ``fair_left_hand``, or "")."""
    who = join(seat_name(seat, me, (), names) for seat in seats)
    if hand:
        return f"{who} came back to the table. {hand} The next hand is dealt."
    return f"{who} came back to the table, with the scores as they were."


FAIR_RESUMED = "You're back at your seat, in the same hand: play on."


def fair_resumed(seat: int, me: int, names: Sequence[str] = ()) -> str:
    """A person whose page reloaded took the hand under way up where they left it."""
    return f"{seat_name(seat, me, (), names)} is back. The hand goes on."


FAIR_BACK_TOO_LATE = ("You came back after your seat's wait ran out: a computer plays it "
                      "now, and the hand you left counted. Press Play online to find a table.")
"""A reloaded tab came back to its fair table too late to take its seat."""
FAIR_BACK_AGAIN = ("You came back after your seat's wait ran out: a computer plays it now, and "
                   "the hand you left counted. You'll sit down again when this hand is over, "
                   "in a seat a computer plays, with the scores as they stand. Close this to "
                   "stop waiting.")
"""The dialog while a person back too late for their seat waits to sit down again."""


def fair_back_too_late(seat: int, me: int, names: Sequence[str] = ()) -> str:
    """A person whose page reloaded came back after a computer took their seat."""
    return (f"{seat_name(seat, me, (), names)} came back too late: a computer plays their "
            "seat now.")


def fair_back_again(seat: int, me: int, names: Sequence[str] = ()) -> str:
    """A person whose page reloaded came back after a computer took their seat, and sits
    down again at the next hand."""
    return (f"{seat_name(seat, me, (), names)} came back too late for their seat: they sit "
            "down again when this hand is over, in a seat a computer plays.")


def fair_false_claim(seat: int, me: int, names: Sequence[str] = ()) -> str:
    """A page claimed a seat it couldn't prove was its own: refused."""
    whose = "your" if seat == me else f"{seat_name(seat, me, (), names)}'s"
    return (f"Someone tried to take {whose} seat without its key, and was refused. The game "
            "goes on.")
