"""The site build's pure parts (tools/site/), on small folders made here: what the service
worker precaches and its cache name, what goes into the page's zip, what the snapshot
imports, the version label. No browser (Node only to unpack a brotli file)."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from tools.site import build, offline, runtime, stdlib_finder, version

FILES = {
    "index.html": "<p>the page</p>",
    "manifest.webmanifest": "{}",
    "static/style.css": "body {}",
    "static/icons/icon.svg": "<svg/>",
    "static/sw.js": "// not the worker: only the site's root sw.js is",
    "py/hearts.zip.gz": "zip bytes",
    "pyscript/core.js": "export {}",
    "pyscript/codemirror-abc123.js": "// an editor the page never loads",
    "pyscript/xterm-def456.js": "// a terminal the page never loads",
    "pyodide/pyodide.asm.wasm": "the wasm",
    "pyodide/pyodide.asm.wasm.br": "the wasm, packed for a first visit",
    "static/brotli/brotli_dec_wasm.js": "// the first visit's decoder",
    "sw.js": "// the worker itself",
}


def make_site(folder: Path, files: dict[str, str] = FILES) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_every_file_is_precached_but_the_worker_and_the_chunks_the_page_never_loads(
        tmp_path: Path) -> None:
    _, entries = offline.precache(make_site(tmp_path))
    assert entries == sorted(entries, key=lambda e: "index.html" if e[0] == "./" else e[0])
    assert dict(entries) == {
        "./": sha256(FILES["index.html"]),  # the page is cached under the scope's own URL
        "manifest.webmanifest": sha256(FILES["manifest.webmanifest"]),
        "py/hearts.zip.gz": sha256(FILES["py/hearts.zip.gz"]),
        "pyodide/pyodide.asm.wasm": sha256(FILES["pyodide/pyodide.asm.wasm"]),
        "pyscript/core.js": sha256(FILES["pyscript/core.js"]),
        "static/icons/icon.svg": sha256(FILES["static/icons/icon.svg"]),
        "static/style.css": sha256(FILES["static/style.css"]),
        "static/sw.js": sha256(FILES["static/sw.js"]),
    }


def test_the_precache_list_of_a_built_site_names_every_file_but_those(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    listed = {url for url, _ in offline.precache(site)[1]}
    every = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    skipped = {name for name in every
               if name.startswith((*offline.NOT_PRECACHED, *offline.NOT_PRECACHED_FOLDERS))
               or name.endswith(offline.NOT_PRECACHED_SUFFIXES)}
    assert skipped == {"pyscript/codemirror-abc123.js", "pyscript/xterm-def456.js",
                       "pyodide/pyodide.asm.wasm.br", "static/brotli/brotli_dec_wasm.js"}
    assert listed == (every - skipped - {"sw.js", "index.html"}) | {"./"}


@pytest.mark.parametrize("name", [n for n in FILES if n != "sw.js"])
def test_the_cache_name_changes_when_any_files_bytes_change(tmp_path: Path, name: str) -> None:
    before = offline.precache(make_site(tmp_path / "a"))[0]
    assert offline.precache(make_site(tmp_path / "b"))[0] == before  # same bytes, same name
    changed = make_site(tmp_path / "c", {**FILES, name: FILES[name] + " "})
    assert offline.precache(changed)[0] != before  # chunks not precached count too


def test_the_cache_name_follows_paths_and_the_template_not_the_worker(tmp_path: Path) -> None:
    before = offline.precache(make_site(tmp_path / "a"), "template")[0]
    assert re.fullmatch("[0-9a-f]{16}", before)
    moved = {("static/main.css" if k == "static/style.css" else k): v for k, v in FILES.items()}
    assert offline.precache(make_site(tmp_path / "b", moved), "template")[0] != before
    assert offline.precache(make_site(tmp_path / "c"), "template 2")[0] != before
    rewritten = make_site(tmp_path / "d", {**FILES, "sw.js": "// an older worker"})
    assert offline.precache(rewritten, "template")[0] == before


def test_the_worker_is_written_from_its_template(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site")
    template = tmp_path / "sw.js"
    template.write_text('const VERSION = "__CACHE_VERSION__";\nconst FILES = __PRECACHE__;\n',
                        encoding="utf-8")
    cache = offline.write(site, template)
    text = (site / "sw.js").read_text(encoding="utf-8")
    assert f'const VERSION = "{cache}";' in text
    listing = json.loads(text.split("const FILES = ", 1)[1].rstrip(";\n"))
    assert listing == [list(e) for e in offline.precache(site, template.read_text())[1]]
    assert offline.write(site, template) == cache  # the worker it wrote doesn't count


def test_a_package_is_zipped_whole_sub_packages_included_and_only_its_modules(
        tmp_path: Path) -> None:
    make_site(tmp_path, {"__init__.py": "", "a.py": "", "table/__init__.py": "",
                         "table/view.py": "", "__pycache__/a.cpython-311.pyc": "",
                         "static/boot.js": "", "notes.md": ""})
    assert [name for _, name in build.package_files(tmp_path, "web")] == [
        "web/__init__.py", "web/a.py", "web/table/__init__.py", "web/table/view.py"]


def test_the_page_zip_holds_hearts_web_and_segno() -> None:
    names = [name for _, name in build.python_files()]
    root = Path(build.__file__).resolve().parents[2]
    ours = sorted(p.relative_to(root).as_posix() for package in ("hearts", "web")
                  for p in (root / package).rglob("*.py") if "__pycache__" not in p.parts)
    assert [n for n in names if not n.startswith("segno/")] == ours
    assert "segno/__init__.py" in names
    assert not [n for n in names if not n.endswith(".py") or "__pycache__" in n]
    assert not [n for n in names if n.startswith("web/static/")]  # (no Python there)


def test_the_later_modules_move_to_the_later_zip(
        tmp_path: Path) -> None:
    py_zip = tmp_path / "hearts.zip"
    names = ["hearts/game.pyc", "web/main.pyc", "web/p2p/__init__.pyc", "web/p2p/codes.pyc",
             "web/p2p/fair/__init__.pyc", "web/p2p/fair/transcript.pyc",
             "web/friends/__init__.pyc", "web/friends/dialog.pyc", "segno/__init__.pyc",
             "_pyscript_cache.pyc"]
    with zipfile.ZipFile(py_zip, "w") as archive:
        for name in names:
            archive.writestr(name, name)
    later = build.split_later(py_zip, {"web.p2p.codes", "web.friends", "web.friends.dialog",
                                       "segno"})
    with zipfile.ZipFile(py_zip) as first, zipfile.ZipFile(later) as rest:
        assert first.namelist() == ["hearts/game.pyc", "web/main.pyc", "web/p2p/__init__.pyc",
                                    "web/p2p/fair/__init__.pyc", "web/p2p/fair/transcript.pyc",
                                    "_pyscript_cache.pyc"]
        assert rest.namelist() == ["web/p2p/codes.pyc", "web/friends/__init__.pyc",
                                   "web/friends/dialog.pyc", "segno/__init__.pyc"]
        assert rest.read("web/friends/dialog.pyc") == b"web/friends/dialog.pyc"


def test_only_start_friends_imports_the_later_zips_modules() -> None:
    """No module of the first zip imports one of the later zip (fetched once the table is
    drawn), anywhere in its code, but web/main.py's start_friends, run after it loads."""
    files = build.python_files()
    later = build.later_modules(files, build.imported_by_main())
    assert {"web.friends.dialog", "segno", "web.seats.remote", "web.p2p.fair.transcript"} <= later
    assert not later & {"web.main", "web.words", "web.blame", "hearts.bots.easy"}
    offenders = {}
    for source, name in files:
        module = build.module_of(name)
        if module in later:
            continue
        wrong = build.imports_of(source, module) & later
        if name == "web/main.py":
            assert wrong == {"web.friends", "web.friends.dialog"}, wrong
        elif wrong:
            offenders[name] = sorted(wrong)
    assert offenders == {}


def deflated_zip(py_zip: Path, folder: str) -> dict[str, str]:
    """Write ``py_zip``, 20 modules deflated one by one, and return them by name."""
    modules = {f"{folder}/part{i}.pyc": f"shared bytecode of part {i} " * 40 for i in range(20)}
    with zipfile.ZipFile(py_zip, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in modules.items():
            archive.writestr(name, text)
    return modules


def test_the_page_zip_is_served_stored_and_gzipped_whole(tmp_path: Path) -> None:
    py_zip = tmp_path / "hearts.zip"
    modules = deflated_zip(py_zip, "web")
    deflated = py_zip.stat().st_size
    served = build.stored_and_gzipped(py_zip)
    assert served.name == "hearts.zip.gz" and not py_zip.exists()
    assert served.stat().st_size < deflated
    with zipfile.ZipFile(io.BytesIO(gzip.decompress(served.read_bytes()))) as archive:
        assert {info.compress_type for info in archive.infolist()} == {zipfile.ZIP_STORED}
        assert {name: archive.read(name).decode() for name in archive.namelist()} == modules


def test_the_first_visits_stdlib_is_served_stored_and_packed_with_brotli(tmp_path: Path) -> None:
    py_zip = tmp_path / "python_stdlib_plain.zip"
    modules = deflated_zip(py_zip, "lib")
    gzipped = len(gzip.compress(build.stored(py_zip), 9))
    served = build.stored_and_brotli(py_zip)
    assert served.name == "python_stdlib_plain.zip.br" and not py_zip.exists()
    assert served.stat().st_size < gzipped
    unpacked = subprocess.run(
        ["node", "-e", "process.stdout.write(require('zlib').brotliDecompressSync("
         "require('fs').readFileSync(process.argv[1])))", str(served)],
        capture_output=True, check=True).stdout
    with zipfile.ZipFile(io.BytesIO(unpacked)) as archive:
        assert {info.compress_type for info in archive.infolist()} == {zipfile.ZIP_STORED}
        assert {name: archive.read(name).decode() for name in archive.namelist()} == modules


def test_the_snapshot_imports_every_module_of_the_zip_after_the_stdlib(tmp_path: Path) -> None:
    py_zip = tmp_path / "hearts.zip"
    with zipfile.ZipFile(py_zip, "w") as archive:
        for name in ("hearts/__init__.py", "hearts/game.py", "web/p2p/__init__.py",
                     "web/p2p/qr.py", "segno/__main__.py", "web/notes.txt"):
            archive.writestr(name, "")
    assert runtime.snapshot_modules(py_zip) == [
        *runtime.SNAPSHOT_STDLIB, "hearts", "hearts.game", "web.p2p", "web.p2p.qr"]


def test_the_version_label_is_a_content_hash_unless_given(tmp_path: Path) -> None:
    page = ('<head><meta name="hearts-version" content="dev"></head>'
            '<footer><span id="version">dev</span></footer>')
    site = make_site(tmp_path / "a", {**FILES, "index.html": page})
    label = version.label(site)
    assert label == version.label(make_site(tmp_path / "b", {**FILES, "index.html": page}))
    assert version.stamp(site) == label
    assert (site / "index.html").read_text() == page.replace(">dev<", f">{label}<").replace(
        '"dev"', f'"{label}"')  # (boot.js reads the head's: a saved table of another version)
    other = make_site(tmp_path / "c", {**FILES, "index.html": page})
    assert version.stamp(other, "v1") == "v1"
    assert 'id="version">v1<' in (other / "index.html").read_text()
    assert '<meta name="hearts-version" content="v1">' in (other / "index.html").read_text()


def test_the_stdlib_finder_installs_once_and_only_answers_stdlib_names(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    monkeypatch.setattr(stdlib_finder, "MODULES", frozenset({"colorsys"}))
    stdlib_finder.install("")
    stdlib_finder.install("https://example.org/python_stdlib.zip")
    finders = [f for f in sys.meta_path
               if isinstance(f, stdlib_finder.WholeStdlib)]
    assert len(finders) == 1 and finders[0].url.endswith("/python_stdlib.zip")
    assert sys.meta_path[-1] is finders[0]  # last: the safety net
    assert finders[0].find_spec("numpy") is None  # not a stdlib name: never a download
    assert not finders[0].tried



def test_a_package_imported_after_the_fetch_finds_its_parts_in_the_whole_stdlib(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``email`` imported from the small zip once the whole stdlib is mounted: importing
    ``email.mime`` looks in the whole stdlib's ``email`` folder too (and adds it once)."""
    monkeypatch.setattr(stdlib_finder, "MODULES", frozenset({"email", "email.mime"}))
    finder = stdlib_finder.WholeStdlib("https://example.org/python_stdlib.zip")
    finder.tried = True  # fetched already
    email_path = ["/lib/python314.zip/email"]
    for _ in range(2):
        assert finder.find_spec("email.mime", email_path) is None  # no such file here
        assert email_path == ["/lib/python314.zip/email",
                              stdlib_finder.WHOLE + "/email"]
    ours = ["/home/pyodide/web"]  # not the small stdlib's: left alone
    finder.find_spec("email.mime", ours)
    assert ours == ["/home/pyodide/web"]

def test_the_page_preloads_what_its_start_needs_not_the_snapshot() -> None:
    """A first visit must not download the snapshot: boot.js preloads per start, and a
    later one reads it unpacked from the worker's cache, not through a download."""
    head = (build.ROOT / "index.html").read_text(encoding="utf-8").split("</head>")[0]
    assert "snapshot.bin" not in head
    boot = (build.ROOT / "web" / "static" / "boot.js").read_text(encoding="utf-8")
    assert head.index('src="./static/boot.js"') < head.index('href="./static/start.mjs"')
    assert "snapshot.bin" not in boot
    assert '["python_stdlib_start.zip", "pyodide.asm.wasm"]' in boot
    assert '"python_stdlib_plain.zip.br",\n      "pyodide.asm.wasm.br"]' in boot


def test_pyscripts_modules_are_precompiled_from_what_its_core_writes() -> None:
    """The build compiles PyScript's package from its artifact (src/stdlib/pyscript.js);
    the .pyc only spare the compile if the core the page loads (dist/) writes the same
    sources: each of them must be in the core's code, as the JSON string it writes."""
    pyscript = build.ROOT / "node_modules" / "@pyscript" / "core"
    artifact = (pyscript / "src" / "stdlib" / "pyscript.js").read_text(encoding="utf-8")
    core = "".join(path.read_text(encoding="utf-8")
                   for path in (pyscript / "dist").glob("core-*.js"))
    sources = json.loads(artifact[artifact.index("{"):].rstrip().rstrip(";"))["pyscript"]
    assert len(sources) >= 10 and "__init__.py" in sources
    for name, text in sources.items():
        assert json.dumps(text, ensure_ascii=False)[1:-1] in core, name


def test_the_finder_adds_a_mounted_zip_to_packages_of_both_partial_zips(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A package imported from the first zip or from the later one looks for its other
    parts in a zip mounted afterwards; packages of ours are left alone."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    first, later, ours = (ModuleType("importlib_part"), ModuleType("email_part"),
                          ModuleType("web_part"))
    first.__path__ = ["/lib/python314.zip/importlib"]
    later.__path__ = [stdlib_finder.LATER + "/email"]
    ours.__path__ = ["/home/pyodide/web"]
    sys.modules.update({"importlib_part": first, "email_part": later, "web_part": ours})
    stdlib_finder.add_zip(stdlib_finder.LATER)
    stdlib_finder.add_zip(stdlib_finder.LATER)  # (once)
    assert sys.path.count(stdlib_finder.LATER) == 1
    assert first.__path__ == ["/lib/python314.zip/importlib", stdlib_finder.LATER + "/importlib"]
    stdlib_finder.add_zip(stdlib_finder.WHOLE)
    assert later.__path__ == [stdlib_finder.LATER + "/email", stdlib_finder.WHOLE + "/email"]
    assert first.__path__[-1] == stdlib_finder.WHOLE + "/importlib"
    assert ours.__path__ == ["/home/pyodide/web"]
