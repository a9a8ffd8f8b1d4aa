"""The relay lobby's wire in JavaScript (``web/static/relays.mjs``), run in Node against the
browser tests' relay (``e2e/nostr_relay.mjs``, which checks nothing): what reaches the
page's Python is only what is authentic, and a note is readable by its one addressee.

Where the checks sit: the JS verifies each event's id and BIP-340 signature before anything
reaches Python (Pyodide has no secp256k1); Python's ``lobby_events.read_event`` then checks
shape and sizes and recomputes the id, and the ``Looker`` mutes floods, refuses replayed
invitations and made-up tables (``tests/test_lobby_relay.py``). This test checks the first
half, and that what the JS signs is what Python and a real secp256k1 library accept.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from web.friends.lobby_events import LOOK, NOTE, read_event

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None or not (ROOT / "node_modules" / "ws").exists(),
                                reason="needs Node and npm ci")


@pytest.fixture(scope="module")
def run() -> Iterator[dict[str, object]]:
    assert NODE is not None
    relay = subprocess.Popen([NODE, str(ROOT / "e2e" / "nostr_relay.mjs"), "0"],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert relay.stdout is not None
        port = relay.stdout.readline().split()[1]
        done = subprocess.run([NODE, str(ROOT / "tests" / "lobby_wire.mjs"), port],
                              capture_output=True, text=True, timeout=60, cwd=ROOT, check=True)
        yield json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        relay.kill()
        relay.wait()


def test_forged_events_never_reach_python(run: dict[str, object]) -> None:
    got = run["a"]
    assert isinstance(got, list)
    looks = [item["event"] for item in got if item["sub"] == "live"]
    # the stranger's honest LOOK once (sent twice), the other page's LOOK and its
    # withdrawal; no forgery
    assert sorted((str(event["pubkey"]), str(event["content"])) for event in looks) == sorted(
        [(str(run["eve"]), '{"v":4,"came":1}'), (str(run["b"]), '{"v":4,"came":7}'),
         (str(run["b"]), '{"v":4,"gone":1}'), (str(run["b"]), '{"v":4,"came":9}')])
    assert all(read_event(event) is not None for event in looks)  # Python agrees on the id


def test_a_note_is_sealed_to_its_one_addressee(run: dict[str, object]) -> None:
    got, spied = run["a"], run["d"]
    assert isinstance(got, list) and isinstance(spied, list)
    notes = [item for item in got if item["sub"] == "notes"]
    assert len(notes) == 1 and notes[0]["plain"] == \
        '{"v":4,"t":"invite","table":"abcd1234","look":"x"}'
    event = read_event(notes[0]["event"])
    assert event is not None and event.kind == NOTE and event.tag("p") is not None
    assert "invite" not in event.content  # on the relay, only the cipher text
    assert len(spied) == 1 and spied[0]["plain"] is None  # a reader it isn't addressed to
    assert run["eve_reads_note"] is None  # nor can another key open it


def test_what_the_page_signs_a_real_secp256k1_library_accepts(run: dict[str, object]) -> None:
    coincurve = pytest.importorskip("coincurve")
    got = run["a"]
    assert isinstance(got, list)
    for item in got:
        event = read_event(item["event"])
        assert event is not None and event.kind in (LOOK, NOTE)
        key = coincurve.PublicKeyXOnly(bytes.fromhex(event.pubkey))
        assert key.verify(bytes.fromhex(event.sig), bytes.fromhex(event.id))
    assert run["sent"] == 4


def test_a_page_that_comes_later_reads_the_stored_looks_newest_only(
        run: dict[str, object]) -> None:
    late = run["late"]
    assert isinstance(late, list)
    by_key = {item["event"]["pubkey"]: item["event"]["content"] for item in late}
    # the stranger's LOOK (its forgeries replaced by it), the other page's withdrawal (its
    # one-shot query closed: not the LOOK the other page filed after)
    assert by_key == {run["eve"]: '{"v":4,"came":1}', run["b"]: '{"v":4,"gone":1}'}
    assert len(late) == 2
