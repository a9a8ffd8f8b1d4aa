"""What the table's two live regions say, and for how long (``web.table.announce``)."""

from __future__ import annotations

from typing import Any, cast

from web.table.announce import Announcer


class _Classes:
    def __init__(self) -> None:
        self.names: set[str] = set()

    def remove(self, name: str) -> None:
        self.names.discard(name)

    def toggle(self, name: str, on: bool) -> None:
        (self.names.add if on else self.names.discard)(name)


class _Region:
    """A live region as the announcer uses it: its text, its classes."""

    def __init__(self) -> None:
        self.textContent = ""
        self.classList = _Classes()


def _announcer() -> tuple[Announcer, _Region, _Region]:
    polite, assertive = _Region(), _Region()
    return Announcer(cast(Any, polite), cast(Any, assertive)), polite, assertive


def test_a_mistake_is_cleared_once_play_moves_on() -> None:
    news, polite, alert = _announcer()
    news.alert("You must follow clubs.")
    news.say("Your turn.")
    assert alert.textContent == "" and polite.textContent == "Your turn."


def test_news_outlives_the_turn_that_comes_with_it_and_goes_at_the_next() -> None:
    """The person's time ran out: what was played for them is news, and their turn comes
    in the same moment. The news stays while they take that turn; the trick after, it goes."""
    news, polite, alert = _announcer()
    news.tell("Time's up: the 2♣ was played for you.")
    news.say("Your turn.")
    assert alert.textContent.startswith("Time's up") and "news" in alert.classList.names
    assert polite.textContent == "Your turn."
    news.say("East takes the trick.")
    assert alert.textContent == ""


def test_a_mistake_after_news_is_cleared_as_mistakes_are() -> None:
    news, _, alert = _announcer()
    news.tell("Bob left the table.")
    news.alert("Wait for your turn.")
    assert "news" not in alert.classList.names
    news.say("Your turn.")
    assert alert.textContent == ""


class _CountedRegion(_Region):
    """A live region that counts how often its text is read and written (each a call out
    of Python in the page)."""

    def __init__(self) -> None:
        object.__setattr__(self, "reads", 0)
        object.__setattr__(self, "writes", 0)
        super().__init__()
        object.__setattr__(self, "writes", 0)

    def __getattribute__(self, name: str) -> Any:
        if name == "textContent":
            object.__setattr__(self, "reads", object.__getattribute__(self, "reads") + 1)
        return object.__getattribute__(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "textContent":
            object.__setattr__(self, "writes", object.__getattribute__(self, "writes") + 1)
        object.__setattr__(self, name, value)


def test_the_regions_are_read_once_and_written_only_with_something_to_say() -> None:
    polite, assertive = _CountedRegion(), _CountedRegion()
    news = Announcer(cast(Any, polite), cast(Any, assertive))
    for sentence in ("West played the 2♣.", "North played the 5♣.", "Your turn."):
        news.say(sentence)
    # what the page had is read once per region; then what was written is known
    assert polite.reads == 1 and assertive.reads == 1
    assert polite.writes == 3
    assert assertive.writes == 0  # nothing to clear: the alert was empty all along
    news.alert("You must follow clubs.")
    news.say("Your turn.")
    assert assertive.writes == 2 and _text(assertive) == ""
    # the same words again still change the region, so a screen reader reads them
    assert _text(polite) == "Your turn.\u00a0"
    news.say("Your turn.")
    assert _text(polite) == "Your turn."
    assert polite.reads == 1 and assertive.reads == 1


def _text(region: _CountedRegion) -> str:
    """The region's text, seen by the test (not counted as the announcer's read)."""
    text: str = object.__getattribute__(region, "textContent")
    return text
