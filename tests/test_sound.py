"""The table's sounds (web/table/sound.py) cost the page few calls: a noise burst's
thousands of samples are made in Python and copied into the Web Audio buffer at once (one
sample at a time, each was a call out of Python: a long task on a phone), and the bursts
are made when the person lets the page make sound, not in the middle of a card played."""

from __future__ import annotations

from typing import Any, cast

from web.browser import Browser
from web.table.sound import CUES, Sound, noise


class _Channel:
    """A buffer's Float32Array as Pyodide hands it over: ``assign`` copies a buffer in."""

    def __init__(self, length: int) -> None:
        self.length = length
        self.values: list[float] = []
        self.calls = 0

    def assign(self, source: Any) -> None:
        self.calls += 1
        assert len(source) == self.length and memoryview(source).format == "f"
        self.values = list(source)

    def __setitem__(self, index: int, value: float) -> None:
        self.calls += 1


class _Node:
    """A gain, an oscillator or a buffer source: anything played."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _Node() if name in ("gain", "frequency") else (lambda *args: None)


class _Buffer:
    def __init__(self, length: int) -> None:
        self.channel = _Channel(length)

    def getChannelData(self, index: int) -> _Channel:
        return self.channel


class _Context:
    sampleRate = 48000
    currentTime = 0.0
    destination = None

    def __init__(self) -> None:
        self.buffers: list[_Buffer] = []

    def createBuffer(self, channels: int, length: int, rate: int) -> _Buffer:
        self.buffers.append(_Buffer(length))
        return self.buffers[-1]

    def createGain(self) -> _Node:
        return _Node()

    def createBufferSource(self) -> _Node:
        return _Node()

    def createOscillator(self) -> _Node:
        return _Node()


class _Maker:
    def __init__(self) -> None:
        self.context = _Context()

    def new(self) -> _Context:
        return self.context


class _Page:
    def __init__(self) -> None:
        self.maker = _Maker()
        self.window = type("Window", (), {"AudioContext": self.maker})()
        self.document = type("Document", (), {})()
        self.document.documentElement = type("Root", (), {})()
        self.document.documentElement.dataset = type("Data", (), {})()

    def el(self, node: Any) -> Any:
        return node


def test_the_noise_bursts_are_made_at_the_first_touch_each_in_one_copy() -> None:
    page = _Page()
    sound = Sound(cast(Browser, page), lambda: True)
    sound.unlock()
    buffers = page.maker.context.buffers
    lengths = {note[2] for notes in CUES.values() for note in notes if note[3] == "noise"}
    assert len(buffers) == len(lengths) == 2  # a card's burst and a trick's
    for buffer in buffers:
        channel = buffer.channel
        assert channel.calls == 1 and len(channel.values) == channel.length
    for name in ("card", "trick", "card"):
        sound.play(name)
    assert len(buffers) == 2  # played from the bursts already made
    assert page.document.documentElement.dataset.cue == "card"


def test_the_noise_is_the_same_every_time_and_within_the_loudness() -> None:
    card = noise(int(48000 * 0.05))
    assert len(card) == 2400 and card == noise(2400)
    assert all(-1.0 <= sample < 1.0 for sample in card)
    assert len({round(sample, 3) for sample in card}) > 1000  # noise, not a tone
    # the generator as the page had it, sample by sample: the same sound
    seed, first = 12345, []
    for _ in range(5):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        first.append(seed / 0x3FFFFFFF - 1.0)
    assert [round(s, 6) for s in card[:5]] == [round(s, 6) for s in first]
