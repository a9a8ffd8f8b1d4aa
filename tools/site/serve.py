"""Serve the built site on 127.0.0.1: ``python tools/site/serve.py [--port N] [DIR]``.

A plain static server (the site needs nothing else) with the MIME types Pyodide needs
(``.mjs`` as JavaScript, ``.wasm`` as application/wasm) whatever the system's tables say.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import http.server
import io
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the right types; quiet unless asked."""

    extensions_map = {  # noqa: RUF012 (the base class declares it this way)
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".zip": "application/zip",
        ".css": "text/css",
        ".html": "text/html",
        ".webmanifest": "application/manifest+json",
        ".svg": "image/svg+xml",
    }
    quiet = False

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            super().log_message(format, *args)


# What GitHub Pages compresses on the fly (gzip): text types and wasm; zip, gz, png go as
# they are.
GZIPPED = (".html", ".js", ".mjs", ".css", ".json", ".svg", ".webmanifest", ".wasm", ".txt")


class GzipHandler(Handler):
    """Like GitHub Pages: gzip for text and wasm when the browser accepts it."""

    _cache: dict[tuple[str, float], bytes] = {}  # noqa: RUF012 (shared by all requests)

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        if (not path.is_file() or path.suffix not in GZIPPED
                or "gzip" not in self.headers.get("Accept-Encoding", "")):
            return super().send_head()  # (redirects, 404s, files sent as they are)
        key = (str(path), path.stat().st_mtime)
        body = self._cache.get(key)
        if body is None:
            body = self._cache[key] = gzip.compress(path.read_bytes(), 6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)


def make_server(directory: Path, port: int = 0, quiet: bool = True, compress: bool = False
                ) -> http.server.ThreadingHTTPServer:
    """A server for ``directory`` on 127.0.0.1 (port 0: any free port); ``compress``: gzip
    the way GitHub Pages does."""
    base = GzipHandler if compress else Handler
    handler = functools.partial(type("QuietHandler", (base,), {"quiet": quiet}),
                                directory=str(directory))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def serve_in_thread(directory: Path, port: int = 0, compress: bool = False
                    ) -> tuple[http.server.ThreadingHTTPServer, threading.Thread]:
    """Start a quiet server in a daemon thread; returns it and the thread."""
    server = make_server(directory, port, compress=compress)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("directory", nargs="?", default=str(ROOT / "_site"))
    args = parser.parse_args()
    server = make_server(Path(args.directory), args.port, quiet=False)
    print(f"Hearts is at http://127.0.0.1:{server.server_address[1]}/  (Ctrl+C stops)")
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()


if __name__ == "__main__":
    main()
