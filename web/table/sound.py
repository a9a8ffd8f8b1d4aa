"""The table's sounds: a card, a trick, hearts broken, the Queen of spades, the moon, a win.

Each is a few notes synthesised with Web Audio in the page (no sound files, nothing fetched).
Browsers only let a page make sound after the person has touched or clicked it, so the
audio starts at the first such input (``unlock``). ``cue_of`` is pure: which sound a
public event (``web.told``) makes, for the seat ``me``.
"""

from __future__ import annotations

import array
from collections.abc import Callable
from typing import Any

from hearts.rules import QUEEN_OF_SPADES
from web.browser import Browser
from web.told import Broken, GameWon, Moon, Played, Told, TookTrick

__all__ = ["CUES", "Sound", "cue_of", "noise"]

# name -> notes: (start s, frequency Hz (0: a noise burst), length s, wave, loudness)
CUES: dict[str, tuple[tuple[float, float, float, str, float], ...]] = {
    "card": ((0.0, 0.0, 0.05, "noise", 0.25),),
    "trick": ((0.0, 0.0, 0.09, "noise", 0.18), (0.04, 330.0, 0.12, "sine", 0.12)),
    "hearts": ((0.0, 880.0, 0.18, "sine", 0.15), (0.09, 1320.0, 0.25, "sine", 0.12)),
    "queen": ((0.0, 147.0, 0.35, "triangle", 0.25), (0.12, 110.0, 0.45, "triangle", 0.22)),
    "moon": tuple((i * 0.11, f, 0.3, "sine", 0.14)
                  for i, f in enumerate((392.0, 494.0, 587.0, 784.0, 988.0))),
    "win": tuple((i * 0.12, f, 0.35, "triangle", 0.16)
                 for i, f in enumerate((523.0, 659.0, 784.0, 1047.0))),
}


def noise(count: int) -> array.array[float]:
    """``count`` samples of white noise in [-1, 1), the same every time (a fixed seed):
    made here in Python and copied to the page in one call, since writing a Web Audio
    buffer one sample at a time is a call out of Python per sample."""
    samples = array.array("f", bytes(4 * count))
    seed = 12345
    for i in range(count):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        samples[i] = seed / 0x3FFFFFFF - 1.0
    return samples


def cue_of(event: Told, me: int) -> str | None:
    """The sound of ``event`` at seat ``me``'s table, or None."""
    if isinstance(event, Played):
        return "queen" if event.card == QUEEN_OF_SPADES else "card"
    if isinstance(event, TookTrick):
        return "trick"
    if isinstance(event, Broken):
        return "hearts"
    if isinstance(event, Moon):
        return "moon"
    if isinstance(event, GameWon) and event.winner == me:
        return "win"
    return None


class Sound:
    """Plays the cues, once the person has let the page make sound, if they want it."""

    def __init__(self, browser: Browser, wanted: Callable[[], bool]) -> None:
        self.browser = browser
        self.wanted = wanted
        self.context: Any = None
        self.noise: dict[float, Any] = {}
        """Noise bursts by length, made once (filling one costs thousands of calls)."""

    def unlock(self) -> None:
        """The person touched, clicked or pressed a key: audio may start now."""
        if self.context is not None or not self.wanted():
            return
        maker = self.browser.el(getattr(self.browser.window, "AudioContext", None))
        if maker is None:
            return  # no Web Audio here: the table plays silently
        try:
            self.context = maker.new()
            # The noise bursts are made now, at the person's touch, rather than in the
            # middle of the table's first card.
            for length in {note[2] for notes in CUES.values() for note in notes
                           if note[3] == "noise"}:
                self._noise(self.context, length)
        except Exception:
            self.context = None

    def play(self, name: str | None) -> None:
        if name is None or not self.wanted():
            return
        self.browser.document.documentElement.dataset.cue = name  # (what the tests see)
        context = self.context
        if context is None:
            return
        try:
            now = float(context.currentTime)
            for start, frequency, length, wave, loudness in CUES[name]:
                self._note(context, now + start, frequency, length, wave, loudness)
        except Exception:  # a sound that fails must never stop the game
            self.context = None

    def _noise(self, context: Any, length: float) -> Any:
        buffer = self.noise.get(length)
        if buffer is None:
            rate = int(context.sampleRate)
            buffer = context.createBuffer(1, max(1, int(rate * length)), rate)
            samples = buffer.getChannelData(0)  # (a Float32Array)
            samples.assign(noise(int(samples.length)))  # one call: Pyodide copies it in
            self.noise[length] = buffer
        return buffer

    def _note(self, context: Any, at: float, frequency: float, length: float, wave: str,
              loudness: float) -> None:
        gain = context.createGain()
        gain.gain.setValueAtTime(loudness, at)
        gain.gain.exponentialRampToValueAtTime(0.001, at + length)
        gain.connect(context.destination)
        if wave == "noise":
            source = context.createBufferSource()
            source.buffer = self._noise(context, length)
        else:
            source = context.createOscillator()
            source.type = wave
            source.frequency.setValueAtTime(frequency, at)
        source.connect(gain)
        source.start(at)
        source.stop(at + length)
