"""The Record dialog's content as markup: stats by level, the daily streak, the history
list and the chart of the game chosen in it. Pure (strings from the record), so pytest
reads what the dialog will show; ``web.table.record_dialog`` only puts it in place.
"""

from __future__ import annotations

import datetime
import html
from collections.abc import Sequence
from dataclasses import dataclass

from web import words
from web.daily import daily_link, streak
from web.record import chart as charts
from web.record.history import FinishedGame, Record, Tally, by_level

__all__ = ["CURRENT", "Current", "chart_html", "history_html", "share_html", "stats_html"]

CURRENT = "current"
"""The history list's key for the game under way."""
NAMES = ("You", "West", "North", "East")


@dataclass(frozen=True)
class Current:
    """The game under way, for its chart (its finished hands so far)."""

    hands: tuple[tuple[int, int, int, int], ...]
    end_score: int = 100


def share_html(share: str, note: str = "") -> str:
    """The daily's result in a field to copy from, with its Share button (the system's
    share sheet, or a copy: ``web.table.record_dialog``)."""
    e = html.escape
    extra = f'<p class="share-note">{e(note)}</p>' if note else ""
    return (f'<div class="share copy-box"><p class="share-result">{e(share)}</p>{extra}'
            f'<label class="share-field">{e(words.SHARE_LABEL)} '
            f'<input type="text" id="share-text" readonly value="{e(share)}"></label>'
            f'<button type="button" id="copy-share" data-share="share-text">'
            f'{e(words.SHARE_BUTTON)}</button><p class="copy-said" role="status"></p></div>')


def stats_html(record: Record, today: datetime.date, address: str = "") -> str:
    """The daily streak, today's daily (its link: ``address``, the page's), the table by
    level and the tallies."""
    e = html.escape
    parts = [f'<p class="streak">{e(words.streak_text(streak(record.days, today)))}</p>']
    if today in record.days:
        total, place = record.days[today]
        share = words.share_text(today, total, place, streak(record.days, today),
                                 *record.helps.get(today, (0, 0)),
                                 link=daily_link(address, today))
        parts.append(share_html(share))
    levels = by_level(record.games)
    if not levels:
        parts.append(f'<p class="record-empty">{e(words.RECORD_EMPTY)}</p>')
        return "".join(parts)
    rows = "".join(
        f'<tr><th scope="row">{words.LEVEL_NAMES[s.level]}</th><td>{s.played}</td><td>{s.won}</td>'
        f'<td>{s.win_rate}%</td><td>{s.per_hand:.1f}</td></tr>' for s in levels)
    heads = "".join(f'<th scope="col">{e(h)}</th>' for h in words.BY_LEVEL_HEADS)
    parts.append(f'<table class="scores by-level"><caption>{e(words.BY_LEVEL)}</caption>'
                 f"<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>")
    tally = Tally()
    for game in record.games:
        tally = tally.plus(game.tally)
    said = words.tallies_text(len(record.games), tally.moons, tally.stopped, tally.queens)
    parts.append(f'<p class="tallies">{e(said)}</p>'
                 f'<p class="fine">{e(words.STOPPED_MEANING)}</p>')
    return "".join(parts)


def _line(game: FinishedGame) -> str:
    return words.game_line(game.day, game.level, game.house_rules, game.daily, game.totals[0],
                           game.place, len(game.hands))


def history_html(games: Sequence[FinishedGame], current: Current | None, selected: str) -> str:
    """The list of games, newest first, each a button that shows its chart."""
    e = html.escape
    items = []
    if current is not None:
        items.append((CURRENT, words.current_line(len(current.hands))))
    items += [(str(i), _line(g)) for i, g in reversed(list(enumerate(games)))]
    if not items:
        return ""
    buttons = "".join(
        f'<li><button type="button" data-game="{key}" '
        f'aria-pressed="{"true" if key == selected else "false"}">{e(text)}</button></li>'
        for key, text in items)
    return f'<ol class="history" aria-label="{e(words.HISTORY_LABEL)}">{buttons}</ol>'


def chart_html(games: Sequence[FinishedGame], current: Current | None, selected: str) -> str:
    """The chart (and its table twin) of the game ``selected`` in the list."""
    e = html.escape
    if selected == CURRENT and current is not None:
        hands, end, over = current.hands, current.end_score, False
    elif selected.isdigit() and int(selected) < len(games):
        game = games[int(selected)]
        hands, end, over = game.hands, game.end_score, True
    else:
        return f'<p class="record-empty">{e(words.RECORD_NOTHING)}</p>'
    if not hands:
        return f'<p class="record-empty">{e(words.RECORD_NOTHING)}</p>'
    # (the heading says what the chosen line in the list above doesn't: who won, or leads)
    totals = [sum(row[seat] for row in hands) for seat in range(4)]
    title = words.chart_title(totals, NAMES, over)
    chart = charts.build(hands, NAMES, end)
    return (f'<h3 class="chart-title">{e(title)}</h3><figure class="chart-box">'
            f"{charts.svg(chart)}{charts.table_html(chart)}</figure>")
