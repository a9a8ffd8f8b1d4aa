"""What the machine looked like when Chromium's renderer crashed ("Target crashed").

Such crashes come and go with the machine (a few in a thousand tests on one, a third of
the tests on another), and Playwright says nothing of their cause. So every crash is noted
with what can be read at that moment: memory, load, open files, /dev/shm, and what
Chromium itself logged (its log file, its noise about D-Bus left out). The notes are
printed at the end of the run, where a CI log shows them.
"""

from __future__ import annotations

import os
import resource
import shutil
from dataclasses import dataclass, field
from pathlib import Path

NOISE = ("dbus/", "idle_linux", "on_device_model", "UPower", "ScreenSaver", "audio_manager",
         "INFO:CONSOLE")
"""Lines Chromium logs at every start on a machine with no desktop, and the pages' console
(the tests watch it themselves): not news."""


CRASHED = ("Target crashed", "Page crashed")
"""Playwright's words for a renderer crash, in a failure's message."""


def crashed(text: str) -> bool:
    """Whether a failure's message says the renderer crashed."""
    return any(words in text for words in CRASHED)


def _meminfo() -> str:
    try:
        lines = Path("/proc/meminfo").read_text().splitlines()
    except OSError:
        return "meminfo unreadable"
    wanted = {"MemTotal", "MemAvailable", "Committed_AS", "Shmem"}
    return ", ".join(line.replace(" ", "") for line in lines
                     if line.split(":")[0] in wanted)


def _chromium_files() -> str:
    """Open files of each Chromium process (the browser's own is the largest)."""
    counts = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if "chrom" not in (proc / "comm").read_text():
                continue
            counts.append(len(os.listdir(proc / "fd")))
        except OSError:
            continue
    counts.sort(reverse=True)
    return f"{len(counts)} processes, open files {counts[:4]}"


@dataclass
class CrashLog:
    """The run's renderer crashes, each with the machine's state when it was seen."""

    chromium_log: Path | None = None
    notes: list[str] = field(default_factory=list)
    _read_to: int = 0

    def follow(self, chromium_log: Path) -> None:
        """Read a newly launched browser's log from now on."""
        self.chromium_log, self._read_to = chromium_log, 0

    def new_lines(self) -> list[str]:
        """What Chromium logged since the last call, noise left out."""
        if self.chromium_log is None:
            return []
        try:
            with self.chromium_log.open("rb") as log:
                log.seek(self._read_to)
                data = log.read()
        except OSError:
            return []
        self._read_to += len(data)
        return [line for line in data.decode(errors="replace").splitlines()
                if line.strip() and not any(word in line for word in NOISE)]

    def note(self, test: str, message: str) -> None:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        try:
            shm = shutil.disk_usage("/dev/shm")
            shm_text = f"{shm.used >> 20} of {shm.total >> 20} MiB used"
        except OSError:
            shm_text = "absent"
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3]) \
            if Path("/proc/loadavg").exists() else "?"
        lines = self.new_lines()[-12:]
        self.notes.append("\n".join([
            f"{test}: {message.splitlines()[0][:160]}",
            f"  load {load}; {_meminfo()}; /dev/shm {shm_text}; "
            f"open files limit {soft}/{hard}; chromium {_chromium_files()}",
            *(f"  | {line[:300]}" for line in lines)]))
