"""A --scheduler address where something other than Dask listens: exit 1, one line, the same
message as an unreachable scheduler, within seconds and without a large allocation."""

from __future__ import annotations

import http.server
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from campaign.batch.scheduler import check_scheduler
from campaign.errors import EnvironmentFailure

from .conftest import one_error_line, run_cli


@pytest.fixture
def web_server() -> Iterator[str]:
    """A plain HTTP server on a free port of this host (it answers 400 to Dask's bytes)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A TCP server that accepts connections and never writes a byte."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    listener.close()


def test_a_web_server_on_the_scheduler_port_is_not_a_scheduler(
    web_server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["batch", "--runs", "1", "-q", "--scheduler", web_server, "-o", str(tmp_path / "r.db")]
    code, _, err = run_cli(argv, capsys)
    line = one_error_line(err)
    assert code == 1 and f"cannot reach the Dask scheduler at {web_server}" in line
    assert "no Dask scheduler answered within 5 s" in line


def test_a_server_that_never_answers_times_out(silent_server: str) -> None:
    start = time.monotonic()
    with pytest.raises(EnvironmentFailure, match=r"no Dask scheduler answered within 0\.5 s"):
        check_scheduler(silent_server, timeout=0.5)
    assert time.monotonic() - start < 5


@pytest.fixture
def chatty_server() -> Iterator[str]:
    """A TCP server that greets every connection with a line of text (as SMTP or SSH do)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def greet() -> None:
        conn, _ = listener.accept()
        conn.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")
        time.sleep(1)
        conn.close()

    thread = threading.Thread(target=greet, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    thread.join()
    listener.close()


def test_a_server_that_speaks_another_protocol_is_refused_at_once(chatty_server: str) -> None:
    start = time.monotonic()
    with pytest.raises(EnvironmentFailure, match="not as a Dask scheduler"):
        check_scheduler(chatty_server)
    assert time.monotonic() - start < 2
