"""What the table shows, as frozen values: the seat's news in, one ``TableModel`` out.

A seat (``web.table.seat``) describes its side of the game as a ``SeatSnapshot``: the seat's
``PlayerView`` and the few facts only the seat knows (whose move is under way, the hand
result to show, what New game means there). The page adds its own state (``PageState``: the
last-trick view, the hint, a closed game-over dialog). ``build`` turns the two into a
``TableModel``, everything the renderer draws, decided here and only here; the renderer
(``web.table.view``) draws it without another decision. Pure: pytest runs it.

Stages (one word for each moment of a hand, used by every seat):
``connecting`` (no state from the host yet), ``lobby`` (a private table before its first
deal), ``pass``, ``play``, ``moon`` (the hand's shooter chooses how its moon scores, under
that house rule), ``scores`` (a hand is over; the table waits before the next) and ``over``
(the game has ended).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from hearts import Card, PassDirection, Phase, PlayerView, Trick
from hearts.rules import pass_target
from hearts.story import hand_story
from web import words
from web.formats import Stats
from web.record.chart import Chart
from web.record.chart import build as build_chart

__all__ = ["POSITIONS", "CardState", "HandResult", "PageState", "SeatBox", "SeatSnapshot",
           "Stage", "SummaryModel", "TableModel", "TrickCard", "build", "card_classes",
           "position"]

Stage = Literal["connecting", "lobby", "pass", "play", "moon", "scores", "over"]
POSITIONS = ("south", "west", "north", "east")
"""Where a seat sits on the page, by its place clockwise from the viewer."""
HAND_ORDER = "CDSH"
"""The suits of the hand from left to right: ♣ ♦ ♠ ♥, black and red by turns, so the two red
suits never run together."""


def in_hand_order(cards: tuple[Card, ...]) -> list[Card]:
    """``cards`` as the hand shows them: by suit in ``HAND_ORDER``, low to high."""
    return sorted(cards, key=lambda c: (HAND_ORDER.index(c.notation[1]), int(c.rank)))


def position(seat: int, me: int) -> str:
    """The place on the page (``south`` … ``east``) of ``seat`` for seat ``me``'s page."""
    return POSITIONS[(seat - me) % 4]


@dataclass(frozen=True)
class HandResult:
    """A hand just scored: its number, each seat's points (moon applied), the shooter."""

    hand: int
    scores: tuple[int, int, int, int]
    moon: int | None = None


@dataclass(frozen=True)
class SeatSnapshot:
    """The seat this page plays, as it stands now (built by the seat, read by the table)."""

    view: PlayerView | None
    """The seat's view of the game; None before a private table's host has sent one."""
    stage: Stage
    kinds: tuple[str, ...] = ()
    """Per seat, who plays it at a private table (``words.KIND_WORDS``); () when alone."""
    names: tuple[str, ...] = ()
    """Per seat, the name its person chose at a table with others ("": its place's)."""
    waiting: tuple[int, ...] = ()
    """The seats the table is waiting for (people at a private table)."""
    selected: tuple[str, ...] = ()
    """The cards chosen to pass so far."""
    may_pass: bool = False
    """This seat still has to choose its three cards."""
    may_play: bool = False
    """The person may play a card now."""
    may_choose_moon: bool = False
    """The person shot the moon and chooses how it scores (house rule)."""
    moving: bool = False
    """Someone else's move is under way (the computers play, a card is on its way)."""
    result: HandResult | None = None
    """The hand summary to show (None: no summary open)."""
    shown: Trick | None = None
    """A finished trick still on show, with its winner."""
    collecting: int | None = None
    """The seat a finished trick is sliding to."""
    can_undo: bool = False
    at_stake: bool = False
    """A game is under way that New game would throw away (the person is asked first)."""
    can_deal: bool = True
    """New game deals a new game now (at a private table: only its host, once the game is
    over)."""
    note: str = ""
    """What the prompt line says when the seat has its own words (lobby, game over…)."""
    where: str | None = None
    """The stats bar's words for where the page sits (None: the clock of the local game)."""
    clock_ms: int = 0
    chat: bool = False
    """The table has people to say preset reactions to."""
    turn_left: int | None = None
    """A table of strangers: the seconds the people it waits for have left."""
    code: str = ""
    """The game's code (``web.record.gamecode``), for a friend to play the same deals."""
    share: str = ""
    """A finished daily deal: the result to share ("Hearts daily 2026-12-01: …")."""
    share_note: str = ""
    """Why the share text isn't this game's result (a second daily the same day)."""
    badge: str = ""
    """What kind of game this is, on the felt ("Daily deal, 1 Dec 2026"; "" for none)."""
    reviewable: bool = False
    """The coach can review the hand of the summary on show."""
    verdict: str = ""
    """A line of the hand summary after its points: a fair table's audit of the hand."""
    can_play_out: bool = False
    """The person is to play and the rest of the hand can't change anyone's points."""
    finished: tuple[Trick, ...] = ()
    """The tricks of the hand the summary is about, each with its taker (() when the seat
    doesn't know them): the felt shows that hand's end behind its summary."""


@dataclass
class PageState:
    """What the page itself adds: ready, the last-trick view, the hint, a closed dialog."""

    ready: bool = False
    review: bool = False
    hint: tuple[str, ...] = ()
    dismissed: bool = False
    """The game-over dialog was closed: it stays closed until a new game."""
    coach: str = ""
    """The coach's line in the hand summary (its review under way or done; "" none)."""
    next_in: int | None = None
    """Seconds until the felt moves on from the hand summary by itself (a table's seat
    waits behind it, ``web.table.held``); None: it waits for the person."""


@dataclass(frozen=True)
class CardState:
    """One card of the hand as it should look and be named."""

    notation: str
    classes: str
    """CSS classes (``card face suit-s black selected …``)."""
    label: str
    """The accessible name, state included."""
    disabled: bool


@dataclass(frozen=True)
class TrickCard:
    notation: str
    classes: str
    seat: int
    label: str
    place: str = "south"
    """Where its player sits on the page (``south`` … ``east``): where it comes from."""


@dataclass(frozen=True)
class SeatBox:
    """One seat's place on the felt: name, totals, points taken this hand, cards left."""

    seat: int
    position: str
    name: str
    score: int
    taken: str
    count: str
    turn: bool
    took: bool = False
    """This seat is taking the trick on show."""
    held: int = 0
    """How many cards the seat holds (drawn as card backs at the others' seats)."""
    away: bool = False
    """Its person's connection went, and the seat waits for them (``data-away``)."""


@dataclass(frozen=True)
class SummaryModel:
    title: str
    final: str
    """ "Final scores: …" at game over, else ""."""
    moon: str
    points: str
    """ "Points this hand: …" ("" when no hand result)."""
    heads: tuple[str, ...]
    rows: tuple[tuple[int, ...], ...]
    current: int | None
    """The row (hand number) just scored."""
    totals: tuple[int, ...]
    button_id: str
    button_text: str
    moment: str = ""
    """What makes this summary a moment of its own: "moon", "win" (you won) or ""."""
    code: str = ""
    """Game over: the game's code ("" when the seat has none)."""
    share: str = ""
    """Game over of a daily deal: the result to share."""
    share_note: str = ""
    chart: Chart | None = None
    """Game over: the chart of the four totals hand by hand."""
    review: bool = False
    """Offer the coach's review of this hand (a button)."""
    coach: str = ""
    """The coach's line: its review under way, or what it found."""
    next_in: str = ""
    """The ready countdown, when one runs: the table moves on by itself then."""
    story: tuple[tuple[str, str], ...] = ()
    """The hand's story (``words.story_lines``): who took the Q♠, the hearts each took…"""
    totals_line: str = ""
    """A hand summary: the running totals after the hand, in words ("" at game over)."""


@dataclass(frozen=True)
class TableModel:
    """Everything the table draws."""

    state: str
    """``<html data-state>``: loading, pass, play, moon, wait, summary or over."""
    seats: tuple[SeatBox, ...] = ()
    trick: tuple[TrickCard, ...] = ()
    trick_classes: str = "trick"
    collect_to: str = ""
    """The place (``west`` …) the finished trick on show is sweeping to, or ""."""
    caption: str = ""
    hand: tuple[CardState, ...] = ()
    hand_label: str = "Your hand"
    passing: bool = False
    deal: int = 0
    """The hand's number: when it changes, a new hand was dealt."""
    pass_to: str = ""
    """The place the person's three cards go to this hand ("" when nobody passes)."""
    pass_from: str = ""
    """The place the three cards the person gets come from."""
    pass_arrow: bool = False
    """An arrow on the felt points to ``pass_to``: the person is choosing what to pass."""
    prompt: str = ""
    turn_clock: int | None = None
    """The turn timer's seconds left, beside the prompt (None: no timer runs)."""
    new_game: bool = True
    hint: bool = False
    undo: bool = False
    last_trick: bool = False
    last_trick_pressed: bool = False
    pass_shown: bool = False
    pass_enabled: bool = False
    pass_text: str = "Pass (0 of 3)"
    play_out: bool = False
    """Offer to play out the rest of the hand (it can't change anyone's points)."""
    pass_chip: str = ""
    hearts_chip: str = ""
    badge: str = ""
    """The daily deal's chip on the felt ("" hides it)."""
    hearts_broken: bool = False
    summary: SummaryModel | None = None
    moon_choice: bool = False
    """The shooter's-choice dialog is open: the person shot the moon."""
    house_line: str = ""
    """The table's short line naming the game's house rules ("" for the standard rules)."""
    house_rules: tuple[str, ...] = ()
    """The game's house rules, a sentence each, for the rules text."""
    scores_again: bool = False
    """The game-over summary was closed: a button opens it again."""
    where: str | None = None
    clock_ms: int = 0
    chat: bool = False
    people: int = 1
    """People (not computers) at this page's table, this page's person included."""
    won: str = "Won 0 of 0"
    best: str = "none yet"
    suits: tuple[str, ...] = field(default=())
    """The letters of the suits in the hand (for jumping to a suit by key)."""


def _suit_class(card: Card) -> str:
    letter = card.notation[1]
    return f"suit-{letter.lower()} {'red' if letter in 'HD' else 'black'}"


def card_classes(card: Card) -> str:
    """The CSS classes of a face-up card."""
    return f"card face {_suit_class(card)}"


def received_marked(view: PlayerView) -> set[str]:
    """The cards received in the pass, marked until this seat's first play."""
    if not view.received or any(seat == view.seat for seat, _ in view.plays()):
        return set()
    return {c.notation for c in view.received}


def _hand(snap: SeatSnapshot, view: PlayerView, page: PageState) -> tuple[CardState, ...]:
    passing = view.phase is Phase.PASS
    received = received_marked(view)
    states = []
    for card in in_hand_order(view.hand):
        n = card.notation
        classes = [card_classes(card)]
        if passing:
            reason = None if snap.may_pass else words.PASSED_WAIT
        else:
            reason = view.why_illegal(card)
            if reason is None and not snap.may_play:
                reason = words.WAIT_TURN
        label = card.name
        if passing and n in snap.selected:
            classes.append("selected")
            label += ", selected"
        if n in received:
            classes.append("received")
            label += ", received"
        if n in page.hint:
            classes.append("hinted")
            label += ", suggested"
        if reason is not None:
            classes.append("dim" if snap.may_play else "waiting")
            label += f", can't play: {words.reason_text(reason)}"
        states.append(CardState(n, " ".join(classes), label, reason is not None))
    return tuple(states)


def _trick(snap: SeatSnapshot, view: PlayerView, page: PageState
           ) -> tuple[tuple[TrickCard, ...], str, int | None]:
    """The cards on the felt, the caption, and who is shown taking them."""
    me = view.seat
    trick: Trick | None = view.trick
    winner: int | None = None
    caption = ""
    if page.review and view.tricks:
        trick = view.tricks[-1]
        winner = trick.winner
        caption = words.last_trick_caption(view)
    elif snap.shown is not None:
        trick = snap.shown
        winner = trick.winner
    cards = []
    if trick is not None:
        for seat, card in trick.plays():
            classes = f"{card_classes(card)} from-{position(seat, me)}"
            if winner == seat:
                classes += " winner"
            cards.append(TrickCard(card.notation, classes, seat,
                                   f"{words.seat_name(seat, me)}: {card.name}",
                                   position(seat, me)))
    return tuple(cards), caption, winner


def _summary(snap: SeatSnapshot, view: PlayerView, page: PageState) -> SummaryModel | None:
    over = snap.stage == "over"
    result = snap.result
    if (result is None and not over) or (over and page.dismissed):
        return None
    me = view.seat
    title = final = moon = points = ""
    if over:
        winner = view.winner if view.winner is not None else me
        title = "Game over — " + ("You win!" if winner == me else
                                  f"{words.seat_name(winner, me)} wins")
        order = sorted(range(4), key=lambda seat: view.scores[seat])
        final = words.final_scores(view.scores, me, order)
    if result is not None:
        if not over:
            title = f"Hand {result.hand} is over"
        if result.moon is not None:
            moon = words.moon_result(result.scores, result.moon, me)
        points = words.hand_points(result.scores, me)
        if snap.verdict:
            points = f"{points} {snap.verdict}"
    moment = "win" if over and view.winner == me else (
        "moon" if result is not None and result.moon is not None else "")
    if not over:
        button = ("next-hand", "Next hand")
    elif snap.can_deal:
        button = ("summary-new-game", "New game")
    else:
        button = ("summary-close", "Close")
    names = tuple(words.seat_name(s, me) for s in range(4))
    story = words.story_lines(hand_story(snap.finished, view.rules), me, snap.kinds,
                              snap.names) \
        if result is not None and snap.finished else ()
    totals_line = "" if over else words.totals_text(view.scores, me, snap.kinds, snap.names)
    chart = None
    if over:  # drawn from the viewer's side, like the score table
        order = [(me + i) % 4 for i in range(4)]
        chart = build_chart([[row[s] for s in order] for row in view.hand_history],
                            [names[s] for s in order], view.rules.end_score)
    return SummaryModel(title, final, moon, points, names,
                        tuple(tuple(row) for row in view.hand_history),
                        None if result is None else result.hand, tuple(view.scores), *button,
                        moment=moment, code=snap.code if over else "",
                        share=snap.share if over else "",
                        share_note=snap.share_note if over else "", chart=chart,
                        review=snap.reviewable and result is not None,
                        coach=page.coach if snap.reviewable and result is not None else "",
                        story=story, totals_line=totals_line,
                        next_in=_next_in(snap, page) if not over else "")


def _next_in(snap: SeatSnapshot, page: PageState) -> str:
    """The hand summary's ready countdown, when one runs: the table's own (a fair table's
    timer readies the person at its end), or that of a table waiting behind the summary."""
    seconds = page.next_in if page.next_in is not None else snap.turn_left
    return "" if seconds is None else words.next_hand_in(seconds)


def _prompt(snap: SeatSnapshot, view: PlayerView, state: str) -> str:
    return _prompt_words(snap, view, state)


def _turn_clock(snap: SeatSnapshot, prompt: str, state: str) -> int | None:
    """The seconds the person has left to move, beside the prompt that asks them to (None:
    no timer runs, or it isn't theirs to beat: they wait for others, or read a summary)."""
    if snap.turn_left is None or not prompt or state not in ("pass", "play"):
        return None
    return snap.turn_left


def _prompt_words(snap: SeatSnapshot, view: PlayerView, state: str) -> str:
    if snap.note:
        return snap.note
    if state == "pass":
        # (how many are chosen: the Pass button says it, "Pass (2 of 3)", on its own line)
        return words.pass_prompt(view)
    if state == "play":
        note = f" {words.PLAY_OUT_NOTE}" if snap.can_play_out else ""
        return words.turn_prompt(view) + note
    if state in ("summary", "over"):
        return ""
    if snap.stage == "pass" and not snap.may_pass:
        return words.waiting_for(snap.waiting, view.seat) or "Passing…"
    if snap.stage == "scores":
        return words.waiting_for(snap.waiting, view.seat)
    if state == "moon":
        return words.MOON_TITLE
    if snap.stage == "moon" and view.moon_chooser is not None:
        return words.moon_waiting(words.seat_name(view.moon_chooser, view.seat, snap.kinds,
                                                  snap.names))
    if (snap.stage == "play" and view.to_play is not None and view.to_play != view.seat
            and snap.shown is None):
        return words.is_playing(words.seat_name(view.to_play, view.seat, snap.kinds, snap.names))
    return ""


def finished_felt(snap: SeatSnapshot, view: PlayerView
                  ) -> tuple[PlayerView, SeatSnapshot]:
    """The view and snapshot the felt is drawn from. Behind a hand's summary that is the
    hand just over, at its end (the engine has dealt the next one already; it is shown
    when the summary is dismissed): nobody holds a card, its last trick lies taken."""
    result = snap.result
    if snap.stage != "scores" or result is None or view.hand_number == result.hand:
        return view, snap
    points = [0, 0, 0, 0]
    for trick in snap.finished:
        if trick.winner is not None:
            points[trick.winner] += trick.points
    felt = replace(view, hand_number=result.hand,
                   pass_direction=view.rules.pass_direction(result.hand), hand=(),
                   passed=None, received=None, tricks=snap.finished, trick=None,
                   hearts_broken=True, hand_points=(points[0], points[1], points[2], points[3]),
                   hand_sizes=(0, 0, 0, 0), to_play=None, legal_plays=())
    shown = snap.shown or (snap.finished[-1] if snap.finished else None)
    return felt, replace(snap, shown=shown, collecting=snap.collecting if snap.shown else None)


def build(snap: SeatSnapshot, page: PageState, stats: Stats | None = None) -> TableModel:
    """The table for ``snap`` as the page stands (``page``), with the person's ``stats``."""
    stats = stats or Stats()
    won = f"Won {stats.won} of {stats.played}"
    best = "none yet" if stats.best is None else str(stats.best)
    view = snap.view
    people = sum(kind in ("host", "friend") for kind in snap.kinds) or 1
    if view is None:  # seated, the cards not yet dealt (a fair table deals them first)
        return TableModel(state="loading" if not page.ready else "wait", new_game=False,
                          prompt=snap.note, where=snap.where, clock_ms=snap.clock_ms,
                          won=won, best=best, people=people)
    summary = _summary(snap, view, page)
    view, snap = finished_felt(snap, view)
    if not page.ready:
        state = "loading"
    elif snap.stage == "over":
        state = "over"
    elif summary is not None:
        state = "summary"
    elif snap.may_choose_moon:
        state = "moon"
    elif snap.may_pass and not snap.moving:
        state = "pass"
    elif snap.may_play:
        state = "play"
    else:
        state = "wait"
    open_summary = summary is not None or snap.stage == "over"
    me = view.seat
    turn = None if (snap.shown is not None or open_summary or snap.stage != "play") \
        else view.to_play
    # Points taken this hand, while it is played (once it is scored, a moon makes the points
    # taken differ from the score: the summary and the totals tell it then).
    taking = snap.stage in ("pass", "play")
    tricks_won = [sum(1 for t in view.tricks if t.winner == seat) for seat in range(4)]
    seats = tuple(
        SeatBox(seat, position(seat, me), words.seat_name(seat, me, snap.kinds, snap.names),
                view.scores[seat], words.taken_text(tricks_won[seat], view.hand_points[seat])
                if taking else "", words.plural(view.hand_sizes[seat], "card"), turn == seat,
                took=snap.shown is not None and snap.shown.winner == seat,
                held=view.hand_sizes[seat],
                away=seat < len(snap.kinds) and snap.kinds[seat] == "away")
        for seat in range(4))
    trick, caption, _ = _trick(snap, view, page)
    collect_to = "" if snap.collecting is None else position(snap.collecting, me)
    giver = next((s for s in range(4) if view.pass_direction is not PassDirection.NONE
                  and pass_target(s, view.pass_direction) == me), None)
    hidden_hand = open_summary or snap.stage == "lobby"
    hand = () if hidden_hand else _hand(snap, view, page)
    passing = view.phase is Phase.PASS
    count = len(hand)
    label = (f"Your hand, {count} cards: choose 3 to pass" if passing and snap.may_pass
             else f"Your hand, {words.plural(count, 'card')}") if hand else "Your hand"
    n = len(snap.selected)
    pass_shown = snap.may_pass and not open_summary
    return TableModel(
        state=state,
        seats=seats,
        trick=trick,
        trick_classes="trick" + (" review" if page.review else "") +
        (f" collect-{collect_to}" if collect_to else ""),
        collect_to=collect_to,
        caption=caption,
        hand=hand,
        hand_label=label,
        passing=passing,
        deal=view.hand_number,
        pass_to="" if view.pass_to is None else position(view.pass_to, me),
        pass_from="" if giver is None else position(giver, me),
        pass_arrow=state == "pass" and view.pass_to is not None,
        prompt=(prompt := _prompt(snap, view, state)),
        turn_clock=_turn_clock(snap, prompt, state),
        new_game=page.ready and snap.can_deal,
        hint=state in ("pass", "play"),
        undo=snap.can_undo and page.ready,
        last_trick=bool(view.tricks) and not open_summary,
        last_trick_pressed=page.review,
        pass_shown=pass_shown,
        pass_enabled=pass_shown and n == 3 and not snap.moving,
        pass_text=f"Pass ({n} of 3)" if n != 3 else "Pass 3 cards",
        play_out=state == "play" and snap.can_play_out,
        pass_chip=words.pass_direction_chip(view),
        hearts_chip="♥\ufe0e broken" if view.hearts_broken else "♥\ufe0e not broken",
        badge=snap.badge,
        hearts_broken=view.hearts_broken,
        summary=summary,
        moon_choice=state == "moon",
        house_line=words.house_rules_line(view.rules),
        house_rules=words.house_rules_sentences(view.rules),
        scores_again=snap.stage == "over" and page.dismissed,
        where=snap.where,
        clock_ms=snap.clock_ms,
        chat=snap.chat,
        people=people,
        won=won,
        best=best,
        suits=tuple(sorted({c.notation[1] for c in view.hand})),
    )


def wait_text(view: PlayerView, kinds: tuple[str, ...] = (),
              names: tuple[str, ...] = ()) -> str:
    """Refusal of a card while someone else is to move."""
    who = words.seat_name(view.to_play, view.seat, kinds, names) if view.to_play is not None \
        else "someone else"
    return words.wait_for_turn(who)


def choose_refusal(snap: SeatSnapshot, card: Card) -> str | None:
    """Why ``card`` can't be chosen (or put back) for the pass now; None if it can."""
    if not snap.may_pass:
        return words.PASSED_ALREADY
    if card.notation not in snap.selected and len(snap.selected) >= 3:
        return words.CHOSEN_THREE
    return None


def play_refusal(snap: SeatSnapshot, card: Card) -> str | None:
    """Why ``card`` can't be played now, in the person's words; None if it can."""
    view = snap.view
    if view is None:
        return words.AT_HOST
    if not snap.may_play:
        if view.phase is Phase.PLAY and view.to_play is not None and not view.my_turn:
            return wait_text(view, snap.kinds, snap.names)
        return view.why_illegal(card) or words.WAIT_TURN
    return view.why_illegal(card)
