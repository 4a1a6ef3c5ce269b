"""console.py - turn a serial console's bytes into clean text lines.

Firmware writes escape codes (SeaBIOS clears the screen, U-Boot colours its
prompt) and every line of the guest ends in "\\r\\n". The runner reads only
what is left once those are gone: plain lines without terminal control.
"""

import re

# CSI sequences (ESC [ ... final), OSC strings (ESC ] ... BEL or ESC \),
# and the two- or three-byte escapes (ESC c, ESC ( B, ESC 7, ...).
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[ -/]*[0-~]"
)
# Every other control character but the tab; "\r" goes too.
_CONTROLS = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def clean_line(raw: bytes) -> str:
    """Return one console line as text: escapes, "\\r" and controls removed."""
    text = raw.decode("utf-8", errors="replace")
    return _CONTROLS.sub("", _ESCAPES.sub("", text)).rstrip()


class LineSplitter:
    """Cut a byte stream into clean lines, whatever the chunk boundaries.

    The unfinished line is kept as a list of chunks and joined once, when
    its newline comes: a line of any length costs time linear in its size.
    """

    def __init__(self) -> None:
        self._pending: list[bytes] = []

    def feed(self, data: bytes) -> list[str]:
        """Return the lines that data completes; keep the unfinished one."""
        if b"\n" not in data:
            if data:
                self._pending.append(data)
            return []
        first, *rest = data.split(b"\n")
        *done, last = [b"".join(self._pending + [first])] + rest
        self._pending = [last] if last else []
        return [clean_line(raw) for raw in done]

    def flush(self) -> list[str]:
        """Return the last line if the stream ended without a newline."""
        rest, self._pending = b"".join(self._pending), []
        line = clean_line(rest)
        return [line] if line else []
