"""The dialog's screens (web/friends/sheet.py), one per moment of a page's session.

Each moment's first screen is one decision with one way forward: these drive a real
``Session`` on the fake network of ``test_friends_session`` and read the frozen sheet.
"""

from __future__ import annotations

import asyncio

from tests.groups import SMALL
from tests.online_pages import Network, Page, looking_unanswered, see_each_other, until
from web import words
from web.friends.looking import GATHER
from web.friends.session import Role
from web.friends.sheet import PARTS, sheet

PRIMARY = ("#fr-open", "#fr-retry", "#fr-back", "#fr-solo")
"""The parts holding the dialog's primary buttons."""


def test_the_first_screen_opens_a_table_or_joins_one() -> None:
    page = Page(Network())
    model = sheet(page.session, intro="intro")
    assert model.role == "" and model.title == words.PLAY_WITH_FRIENDS
    assert model.shows("#fr-open") and model.shows("#fr-paste")
    assert not model.shows("#fr-leave") and model.text("#fr-close") == words.CLOSE
    assert [p for p in PRIMARY if model.shows(p)] == ["#fr-open"]
    assert set(PARTS) >= model.shown


def test_looking_shows_the_countdown_and_one_way_out_that_stops_it() -> None:
    async def run() -> None:
        page = Page(Network())
        page.session.play_online()
        await until(lambda: page.session.online.met(),
                    "in the lobby")
        model = sheet(page.session)
        assert model.looking and model.title == words.PLAY_ONLINE
        assert model.shows("#fr-online") and "Looking" in model.text("#fr-online-state")
        assert not model.shows("#fr-leave") and not model.shows("#fr-paste")
        assert model.text("#fr-close") == words.STOP_LOOKING
        page.close_dialog()
        await until(lambda: not sheet(page.session).looking, "the look stopped")
    asyncio.run(run())


def test_no_relay_says_so_and_offers_to_try_again_or_choose_a_relay() -> None:
    async def run() -> None:
        network = Network()
        network.relay_up = False
        page = Page(network)
        page.session.play_online()
        await until(lambda: page.session.role is Role.NO_RELAY, "the relays' silence said")
        model = sheet(page.session)
        assert model.shows("#fr-retry") and model.shows("#fr-relay-set")
        assert not model.shows("#fr-online") and not model.looking
        # said first, the choice of another relay opened just below it, in red
        assert "127.0.0.1:1" in model.text("#fr-fair-closed") and model.shows("#fr-fair-closed")
        assert model.text("#fr-error") == "" and model.settings_open
        assert "#fr-fair-closed" not in model.news
        assert [p for p in PRIMARY if model.shows(p)] == ["#fr-retry"]
        assert model.text("#fr-retry") == words.TRY_AGAIN
    asyncio.run(run())


def test_before_the_relays_answer_no_countdown_is_promised() -> None:
    async def run() -> None:
        _, page, answer = await looking_unanswered()
        said = sheet(page.session).text("#fr-online-state")
        assert said == words.looking_text(1, GATHER, met=False) and " s," not in said
        answer.set()
        await until(lambda: page.session.online.met(),
                    "the relays answered")
        assert f"alone in {GATHER:.0f} s" in sheet(page.session).text("#fr-online-state")
        page.close_dialog()
    asyncio.run(run())


def test_leaving_an_online_table_says_so_plainly_and_offers_to_look_again() -> None:
    async def run() -> None:
        network, clock = Network(), [0.0]
        pages = [Page(network, clock) for _ in range(2)]
        for page in pages:
            page.session.play_online()
            page.session.fair_group = SMALL
        await see_each_other(pages, 2)
        clock[0] = GATHER + 0.5
        await until(lambda: all(p.session.fair is not None and p.session.fair.seat
                                for p in pages), "both pages seated")
        session = pages[0].session
        session.play_online()  # Play online again, while seated: the table, no refusal
        seated = sheet(session)
        assert pages[0].dialog_open and session.error == "" and seated.text("#fr-error") == ""
        assert seated.shows("#fr-leave")
        session.leave()
        left = sheet(session)
        assert left.title == words.PLAY_ONLINE and left.text("#fr-fair-closed") == words.FAIR_LEFT
        assert "#fr-fair-closed" in left.news  # news, not an error in red
        assert left.text("#fr-error") == ""
        for private in ("#fr-start", "#fr-open", "#fr-paste", "#fr-settings"):
            assert not left.shows(private), private
        assert left.shows("#fr-retry") and left.text("#fr-retry") == words.PLAY_ONLINE_AGAIN
    asyncio.run(run())


def test_a_host_sees_how_to_end_the_table_and_how_to_go_back_to_it() -> None:
    async def run() -> None:
        page = Page(Network())
        page.session.open_table()
        await until(lambda: not page.session.busy, "the invites made")
        model = sheet(page.session)
        assert model.role == "host" and model.stage == "lobby"
        assert model.shows("#fr-invites") and model.shows("#fr-leave")
        assert model.text("#fr-leave") == words.END_TABLE
        assert model.text("#fr-close") == words.BACK_TO_TABLE
        page.session.leave()
        closed = sheet(page.session)
        assert closed.closed and closed.text("#fr-error") == words.table_closed(
            told=False, solo=False)
        assert "#fr-error" in closed.news  # what the person did: said plainly, not in red
        assert not closed.shows("#fr-leave") and closed.text("#fr-close") == words.CLOSE
    asyncio.run(run())


def test_a_tab_that_held_a_seat_is_offered_it_back_first() -> None:
    page = Page(Network())
    model = sheet(page.session, offer_seat=True)
    assert model.shows("#fr-back") and model.text("#fr-back-note") == words.BACK_OFFER
    assert [p for p in PRIMARY if model.shows(p)] == ["#fr-back"]
    assert not model.shows("#fr-paste")
