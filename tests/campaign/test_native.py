"""The compiled campaign modules (campaign.native, issue 15): found, checked, the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from campaign import native
from campaign.native import __main__ as native_cli
from campaign.native import build as native_build
from campaign.native.build import GROUP, BuildError, _mypy_config, install

ROOT = Path(__file__).resolve().parents[2]

#: campaigns hashed in each mode: (map, doctrines) x seeds
_SCRIPT = """
import hashlib, json, sys
import campaign.native
from campaign.config import load_rules
from campaign.engine import run_campaign
from campaign.events import event_to_dict
from campaign.maps import load_map
rules = load_rules()
out = {"status": campaign.native.status(), "hashes": []}
pairs = ((None, None), ("waterloo-1815", {"red": "raider", "blue": "aggressive"}))
for map_name, doctrines in pairs:
    cmap = load_map(map_name)
    for seed in range(12):
        result = run_campaign(cmap, rules, seed, doctrines)
        rows = [event_to_dict(e) for e in result.events]
        text = json.dumps(rows, sort_keys=True, default=str)
        out["hashes"].append(hashlib.sha256(text.encode()).hexdigest()[:16])
print(json.dumps(out))
"""


def _record(build: Path, **changes: object) -> None:
    record: dict[str, object] = {
        "source_hash": native.source_hash(),
        "modules": list(native.MODULES),
        "files": {m: f"{m}.so" for m in (*native.MODULES, f"{GROUP}__mypyc")},
    }
    record.update(changes)
    build.mkdir(parents=True, exist_ok=True)
    (build / native.STAMP_NAME).write_text(json.dumps(record), encoding="utf-8")


def _fresh_build() -> bool:
    files, _ = native._plan(native.native_dir())
    return files is not None


def test_no_build_is_not_used(tmp_path: Path) -> None:
    files, status = native._plan(tmp_path / "nowhere")
    assert files is None and status.startswith("missing")


def test_a_stale_build_is_not_used(tmp_path: Path) -> None:
    _record(tmp_path, source_hash="0" * 64)
    files, status = native._plan(tmp_path)
    assert files is None and status.startswith("stale")


def test_a_broken_or_partial_build_is_not_used(tmp_path: Path) -> None:
    (tmp_path / native.STAMP_NAME).write_text("{not json", encoding="utf-8")
    assert native._plan(tmp_path)[1].startswith("unreadable build record")
    _record(tmp_path, modules=["campaign.engine"])
    assert "another list of modules" in native._plan(tmp_path)[1]
    _record(tmp_path)  # the record is right, the extension files are not there
    files, status = native._plan(tmp_path)
    assert files is None and status.startswith("incomplete build")


@pytest.mark.parametrize("modules", [None, 5, [1, 2]])
def test_a_record_of_the_wrong_shape_is_not_used(tmp_path: Path, modules: object) -> None:
    """A hand-edited native.json (``"modules": null``) is reported, not a traceback."""
    _record(tmp_path, modules=modules)
    files, status = native._plan(tmp_path)
    assert files is None
    assert status.startswith(("unreadable build record", "built for another list"))


def test_a_build_folder_that_cannot_be_written_is_a_clear_error(tmp_path: Path) -> None:
    stage = tmp_path / "stage"
    stage.mkdir()
    (tmp_path / "blocker").write_text("a file where the build folder would go")
    with pytest.raises(BuildError, match="could not write the build to"):
        install(stage, tmp_path / "blocker" / "native", {"source_hash": "x"})


def test_ensure_remembers_a_failed_build(tmp_path: Path, monkeypatch, capsys) -> None:
    """Without a C compiler every make target would try again (~14 s): a failed build is
    remembered for these sources; an explicit build tries again."""
    calls = []

    def failing(**_: object) -> Path:
        calls.append(1)
        raise BuildError("error: command 'gcc' failed: No such file or directory")

    monkeypatch.setattr(native_build, "build", failing)
    monkeypatch.setattr(native, "native_dir", lambda: tmp_path / "native")
    monkeypatch.setitem(native._state, "status", "missing (make native builds them)")
    assert native_cli.main(["ensure"]) == 0
    assert native_cli.main(["ensure"]) == 0
    assert len(calls) == 1
    assert "could not be compiled from these sources before" in capsys.readouterr().err
    assert native_cli.main(["build"]) == 2
    assert len(calls) == 2


def test_a_complete_fresh_build_is_planned(tmp_path: Path) -> None:
    _record(tmp_path)
    for name in (*native.MODULES, f"{GROUP}__mypyc"):
        (tmp_path / f"{name}.so").write_bytes(b"")
    files, status = native._plan(tmp_path)
    assert status == "compiled"
    assert files is not None and set(files) == {*native.MODULES, f"{GROUP}__mypyc"}


def test_campaign_native_0_keeps_plain_python(tmp_path: Path) -> None:
    before = native.status()
    try:
        assert native.activate({"CAMPAIGN_NATIVE": "0"}) == "off (CAMPAIGN_NATIVE=0)"
        assert native.status() == "off (CAMPAIGN_NATIVE=0)"
    finally:
        native._state["status"] = before


def test_any_source_edit_makes_the_build_stale() -> None:
    """The stamp covers battle/ and campaign/ (mypyc compiles against their types)."""
    files = {p.relative_to(ROOT).as_posix() for p in native.source_files()}
    assert {"campaign/engine.py", "battle/engine.py", "campaign/events.py"} <= files
    assert not any(f.startswith("campaign/native/") for f in files)


def test_the_build_reads_the_projects_mypy_settings(tmp_path: Path) -> None:
    ini = _mypy_config(ROOT, tmp_path).read_text(encoding="utf-8")
    assert "[mypy]\n" in ini and "strict = True" in ini
    sections = [line for line in ini.splitlines() if line.startswith("[mypy-")]
    assert any("networkx.*" in line for line in sections)
    assert "ignore_missing_imports = True" in ini


def test_a_fresh_build_is_in_use() -> None:
    if not _fresh_build():
        pytest.skip(f"no up-to-date compiled build ({native.status()}): make native builds it")
    import campaign.engine
    import campaign.strategy.doctrine

    assert native.status() == "compiled"
    for module in (campaign.engine, campaign.strategy.doctrine):
        assert module.__file__ is not None and module.__file__.endswith((".so", ".pyd"))


@pytest.mark.slow
def test_compiled_and_plain_python_give_the_same_campaigns() -> None:
    """24 campaigns (two maps, two doctrine pairs), every event: byte-identical logs from the
    compiled modules and from the plain ones."""
    if not _fresh_build():
        pytest.skip(f"no up-to-date compiled build ({native.status()}): make native builds it")
    runs = {}
    for mode in ("1", "0"):
        env = {**os.environ, "CAMPAIGN_NATIVE": mode, "PYTHONHASHSEED": mode}
        out = subprocess.run(
            [sys.executable, "-c", _SCRIPT],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=600,
            check=True,
        )
        runs[mode] = json.loads(out.stdout.strip().splitlines()[-1])
    assert runs["1"]["status"] == "compiled"
    assert runs["0"]["status"].startswith("off")
    assert runs["1"]["hashes"] == runs["0"]["hashes"]
    assert len(set(runs["1"]["hashes"])) == 24  # 24 different campaigns, not one
