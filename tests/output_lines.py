"""A child process's output, read line by line on a thread, for tests that wait for what it logs."""

from __future__ import annotations

import queue
import re
import threading
from typing import IO


class OutputLines:
    """The lines of ``stream`` as they come; waits are bounded by ``deadline_seconds`` per line."""

    def __init__(self, stream: IO[str] | None, deadline_seconds: float) -> None:
        assert stream is not None
        self.stream = stream
        self.deadline_seconds = deadline_seconds
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.stream:
            self.lines.put(line)

    def wait_for(self, pattern: str, count: int = 1) -> list[re.Match[str]]:
        """Read until ``count`` lines match ``pattern``, counting those already read."""
        found = [m for m in map(re.compile(pattern).search, self.seen) if m]
        while len(found) < count:
            line = self.lines.get(timeout=self.deadline_seconds)
            self.seen.append(line)
            match = re.search(pattern, line)
            if match:
                found.append(match)
        return found

    def drain(self) -> None:
        """Take every line read so far."""
        while not self.lines.empty():
            self.seen.append(self.lines.get())
