"""Is a Dask scheduler at that address? Checked before ``distributed`` connects (issue 32).

``distributed``'s client trusts whatever answers at the address: a plain web server on the
port sends ``HTTP/1.1 400`` back, whose first eight bytes the client reads as a frame length
(3 EiB) and fails with a ``MemoryError``. A Dask scheduler speaks first: as soon as it
accepts a connection it writes its handshake (a length-prefixed message naming its
``pickle-protocol``). :func:`check_scheduler` connects with a timeout, reads that much and
no more (a bounded read), and refuses anything else with the same message as an
unreachable scheduler (exit 1).
"""

from __future__ import annotations

import socket
import struct
import time

from campaign.errors import EnvironmentFailure

__all__ = ["PROBE_SECONDS", "check_scheduler", "unreachable"]

#: Seconds the probe waits to connect, then for the scheduler's handshake (a scheduler
#: writes it as soon as it accepts; a web server waits for a request and says nothing).
PROBE_SECONDS = 5.0
#: Largest handshake accepted (bytes): a scheduler's is a few hundred.
_MAX_HANDSHAKE = 64 * 1024


def unreachable(address: str, detail: str) -> EnvironmentFailure:
    """The one message of a scheduler that cannot be used (exit 1)."""
    return EnvironmentFailure(
        f"cannot reach the Dask scheduler at {address} ({' '.join(detail.split())[:200]})",
        key="--scheduler",
        fix="Start it (dask scheduler --port 8786) or check the address and the network, "
        "then run the same command again.",
    )


def _read(sock: socket.socket, n: int, deadline: float) -> bytes:
    data = b""
    while len(data) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no Dask handshake")
        sock.settimeout(left)
        part = sock.recv(n - len(data))
        if not part:
            raise ConnectionError("the connection was closed before a Dask handshake")
        data += part
    return data


def check_scheduler(address: str, timeout: float = PROBE_SECONDS) -> None:
    """Connect to ``tcp://HOST:PORT`` and check that a Dask scheduler answers.

    Other protocols (``tls://``, ``ucx://``) are left to ``distributed``.

    Raises
    ------
    EnvironmentFailure
        Nobody listens, nobody answers within ``timeout`` seconds, or what answers is not
        a Dask scheduler's handshake.
    """
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme != "tcp":
        return
    host, _, port_text = rest.rpartition(":")
    host = host.strip("[]")
    try:
        port = int(port_text.split("/")[0])
    except ValueError:
        return  # distributed says what is wrong with the address
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            deadline = time.monotonic() + timeout
            (size,) = struct.unpack("<Q", _read(sock, 8, deadline))
            if not 0 < size <= _MAX_HANDSHAKE:
                raise ValueError(f"it answered, but not as a Dask scheduler ({size} bytes)")
            if b"pickle-protocol" not in _read(sock, size, deadline):
                raise ValueError("it answered, but not with a Dask scheduler's handshake")
    except TimeoutError:
        raise unreachable(address, f"no Dask scheduler answered within {timeout:g} s") from None
    except ValueError as exc:
        raise unreachable(address, str(exc)) from None
    except OSError as exc:
        raise unreachable(address, exc.strerror or str(exc) or type(exc).__name__) from None
