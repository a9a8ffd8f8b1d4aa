"""Cards move the way they would on a real table, and not at all when asked for none.

A played card starts at its player's seat (a computer's from its fan of card backs, yours
from its place in your hand) and travels to the trick; the three cards you pass fly toward
their receiver and the three you get come in; under ``?speed=instant`` nothing moves.
The page's own animations are read as they start (``Element.getAnimations``), so the tests
check where a card is drawn at the first frame, never the clock.
"""

from __future__ import annotations

from typing import Any

import pytest
from tablepage import TablePage

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

# For each card that lands in the trick: where it is drawn at its animation's first frame
# (its centre), and the box of the seat it came from (its fan, else its plate).
WATCH_TRICK = """() => {
  window.__starts = [];
  const box = el => { const r = el.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  new MutationObserver(records => {
    for (const record of records) for (const node of record.addedNodes) {
      if (!(node instanceof Element) || !node.dataset.card) continue;
      const place = [...node.classList].find(c => c.startsWith('from-')).slice(5);
      const seat = document.querySelector(`.seat-${place}[data-seat]`);
      const fan = seat.querySelector('.fan');
      const from = fan && fan.getBoundingClientRect().width ? fan : seat;
      const r = node.getBoundingClientRect();
      window.__starts.push({card: node.dataset.card, place,
        moving: node.getAnimations().length,
        x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2, seat: box(from),
        hand: box(document.querySelector('#hand'))});
    }
  }).observe(document.querySelector('#trick'), {childList: true});
}"""


def inside(x: float, y: float, b: dict[str, float], slack: float = 4) -> bool:
    return (b["left"] - slack <= x <= b["right"] + slack
            and b["top"] - slack <= y <= b["bottom"] + slack)


def test_a_played_card_travels_from_its_players_seat(table: TablePage) -> None:
    table.goto("?seed=5")  # the default speed: normal
    table.page.evaluate(WATCH_TRICK)
    table.pass_cards()
    for _ in range(3):
        table.wait_input()
        table.play_one()
    starts: list[dict[str, Any]] = table.page.evaluate("window.__starts")
    assert {s["place"] for s in starts} == {"south", "west", "north", "east"}, starts
    for s in starts:
        assert s["moving"], s
        if s["place"] == "south":
            assert inside(s["x"], s["y"], s["hand"]), s
        else:
            assert inside(s["x"], s["y"], s["seat"]), s
    assert not table.errors


def test_passed_cards_fly_to_the_receiver_and_received_ones_come_in(table: TablePage) -> None:
    table.goto("?seed=5")
    chosen = table.hand()[:3]
    for card in chosen:
        table.click_card(card)
    table.page.click("#pass")
    table.page.wait_for_function("document.querySelectorAll('#flying .flying-card').length")
    flying = table.page.eval_on_selector_all(
        "#flying .flying-card", "els => els.map(e => [e.dataset.flying, e.getAnimations().length])")
    assert sorted(card for card, _ in flying) == sorted(chosen)
    assert all(moving for _, moving in flying)
    table.wait_input()
    received = table.marked("received")
    assert len(received) == 3
    coming = table.page.eval_on_selector_all(
        "#hand .received", "els => els.map(e => e.getAnimations().length)")
    assert len(coming) == 3  # (they may have landed already on a slow machine)
    assert not table.errors


def test_nothing_moves_at_instant_speed(table: TablePage) -> None:
    table.goto("?speed=instant&seed=5")
    table.page.evaluate(WATCH_TRICK)
    table.pass_cards()
    table.play_one()
    starts = table.page.evaluate("window.__starts")
    assert starts and not any(s["moving"] for s in starts), starts
    assert table.page.evaluate("document.querySelectorAll('#flying *').length") == 0
    assert table.page.evaluate("document.getAnimations().length") == 0


def test_a_finished_trick_sweeps_to_the_seat_that_took_it(table: TablePage) -> None:
    table.goto("?seed=5")
    table.pass_cards()
    table.wait_input()
    table.click_card(table.playable()[0])
    table.page.wait_for_selector("#trick[class*='collect-']", timeout=30_000)
    ends = table.page.evaluate("""() => {
      const place = [...document.querySelector('#trick').classList]
        .find(c => c.startsWith('collect-')).slice(8);
      const seat = document.querySelector(`.seat-${place}[data-seat]`);
      const fan = seat.querySelector('.fan');
      const r = (fan && fan.getBoundingClientRect().width ? fan : seat).getBoundingClientRect();
      return [...document.querySelectorAll('#trick [data-card]')].map(card => {
        const [sweep] = card.getAnimations();
        if (!sweep) return null;
        sweep.pause(); sweep.currentTime = 0;
        const at = card.getBoundingClientRect();
        const [dx, dy] = sweep.effect.getKeyframes().at(-1).transform
          .match(/translate\\(([-\\d.]+)px, ([-\\d.]+)px\\)/).slice(1).map(Number);
        return {x: (at.left + at.right) / 2 + dx, y: (at.top + at.bottom) / 2 + dy,
                seat: {left: r.left, top: r.top, right: r.right, bottom: r.bottom}};
      });
    }""")
    assert len(ends) == 4 and all(ends), ends
    for end in ends:
        assert inside(end["x"], end["y"], end["seat"]), end
