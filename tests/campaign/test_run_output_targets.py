"""Where ``campaign run -o`` / ``--report`` and ``map convert -o`` write: a regular file is
replaced whole, a symlink is followed (the link stays a link), and a device, FIFO or socket is
written in place, never replaced by a regular file; an unwritable place is refused before the
campaign is played."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from campaign.cli import main


def _run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return int(exc.value.code or 0), out, err


def _error(capsys, *args: str) -> str:
    code, _out, err = _run(capsys, *args)
    assert code == 2, err
    lines = [line for line in err.splitlines() if not line.startswith("seed ")]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def _reader(fifo: Path, into: list[str]) -> threading.Thread:
    def read() -> None:
        with fifo.open(encoding="utf-8") as handle:
            into.append(handle.read())

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def test_a_fifo_is_written_in_place(capsys, tmp_path):
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    got: list[str] = []
    thread = _reader(fifo, got)
    code, _, err = _run(capsys, "run", "--seed", "1", "-o", str(fifo))
    thread.join(timeout=30)
    assert code == 0, err
    assert stat.S_ISFIFO(fifo.lstat().st_mode)  # still a FIFO, not a regular file
    assert got and got[0].startswith("Campaign log") and "Seed 1" in got[0]
    assert not list(tmp_path.glob(".*partial*"))


def test_a_symlink_is_followed_and_stays_a_link(capsys, tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(real.name)
    code, _, err = _run(capsys, "run", "--seed", "1", "-o", str(link))
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == "real.txt"
    assert real.read_text(encoding="utf-8").startswith("Campaign log")
    assert not list(tmp_path.glob(".*partial*"))


def test_a_dangling_symlink_creates_the_file_it_names(capsys, tmp_path):
    link = tmp_path / "link.txt"
    link.symlink_to("made.txt")
    code, _, err = _run(capsys, "run", "--seed", "1", "-o", str(link))
    assert code == 0, err
    assert link.is_symlink()
    assert (tmp_path / "made.txt").read_text(encoding="utf-8").startswith("Campaign log")


def test_a_symlink_to_a_fifo_keeps_both(capsys, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "so"
    link.symlink_to(fifo)
    got: list[str] = []
    thread = _reader(fifo, got)
    code, _, err = _run(capsys, "run", "--seed", "1", "-o", str(link))
    thread.join(timeout=30)
    assert code == 0, err
    assert link.is_symlink() and stat.S_ISFIFO(fifo.lstat().st_mode)
    assert got and got[0].startswith("Campaign log")


def _device(path: Path, minor: int) -> Path:
    """A private copy of a memory device (major 1) inside tmp_path: the real /dev is never
    written by a test (a regression would replace it for the whole machine)."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    except OSError as exc:
        pytest.skip(f"cannot make a device node here ({exc})")
    return path


def test_a_null_device_stays_a_device(capsys, tmp_path):
    null = _device(tmp_path / "null", 3)
    code, _, err = _run(capsys, "run", "--seed", "1", "-o", str(null))
    assert code == 0, err
    assert stat.S_ISCHR(null.lstat().st_mode)  # never replaced by a regular file
    assert null.read_text(encoding="utf-8") == ""


def test_a_full_device_is_exit_2_and_stays_a_device(capsys, tmp_path):
    full = _device(tmp_path / "full", 7)  # a private /dev/full
    err = _error(capsys, "run", "--seed", "1", "-o", str(full))
    assert err.startswith(f"error: {full}: --output: cannot write to it (No space left on device)")
    assert "not a regular file" in err and "Choose a regular file" in err
    assert stat.S_ISCHR(full.lstat().st_mode)


def test_a_report_through_a_symlink_keeps_the_link(capsys, tmp_path):
    real = tmp_path / "real.html"
    link = tmp_path / "diary.html"
    link.symlink_to(real.name)
    code, _, err = _run(capsys, "run", "--seed", "1", "--report", str(link))
    assert code == 0, err
    assert link.is_symlink() and real.read_text(encoding="utf-8").lstrip().startswith("<!")


def test_map_convert_through_a_symlink_keeps_the_link(capsys, tmp_path):
    real = tmp_path / "real.yaml"
    link = tmp_path / "out.yaml"
    link.symlink_to(real.name)
    code, _, err = _run(capsys, "map", "convert", "default", "-o", str(link))
    assert code == 0, err
    assert link.is_symlink() and "junctions:" in real.read_text(encoding="utf-8")


def test_report_into_an_unwritable_folder_is_refused_before_playing(capsys, tmp_path):
    code, out, err = _run(capsys, "run", "--seed", "1", "--report", "/proc/x.html")
    assert code == 2 and out == ""  # nothing was played or printed
    assert err == (
        "error: /proc/x.html: --report: cannot create a file in the folder '/proc' "
        "(No such file or directory). Choose a folder you can create files in.\n"
    )


def test_output_into_an_unwritable_folder_is_refused_before_playing(capsys):
    code, out, err = _run(capsys, "run", "--seed", "1", "-o", "/proc/x.txt")
    assert code == 2 and out == ""
    assert "error: /proc/x.txt: --output: cannot create a file in the folder '/proc'" in err
    assert "seed 1" not in err  # refused before the campaign was even set up


def test_report_naming_a_folder_says_it_is_a_folder(capsys, tmp_path):
    err = _error(capsys, "run", "--seed", "1", "--report", str(tmp_path))
    assert err == (
        f"error: {tmp_path}: --report: cannot write there (it is a folder, not a file). "
        f"Name a file inside it, e.g. {tmp_path / 'NAME'}, or another file."
    )
    assert "suffix" not in err


def test_a_socket_is_refused_and_left_as_it_is(capsys, tmp_path):
    import socket

    path = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        code, out, err = _run(capsys, "run", "--seed", "1", "-o", str(path))
    finally:
        server.close()
    assert code == 2 and out == "" and "seed 1" not in err  # refused before playing
    err = err.strip()
    assert err == (
        f"error: {path}: --output: cannot write there (it is a socket, which cannot be opened "
        "as a file). Choose a regular file, or a FIFO (mkfifo) that a reader has open."
    )
    assert stat.S_ISSOCK(path.lstat().st_mode)
