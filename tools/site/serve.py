"""Serve the built site on 127.0.0.1: ``python tools/site/serve.py [--port N] [DIR]``.

A plain static server (the site needs nothing else) with the MIME types Pyodide needs
(``.mjs`` as JavaScript, ``.wasm`` as application/wasm) whatever the system's tables say.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
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


def make_server(directory: Path, port: int = 0, quiet: bool = True
                ) -> http.server.ThreadingHTTPServer:
    """A server for ``directory`` on 127.0.0.1 (port 0: any free port)."""
    handler = functools.partial(type("QuietHandler", (Handler,), {"quiet": quiet}),
                                directory=str(directory))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def serve_in_thread(directory: Path, port: int = 0
                    ) -> tuple[http.server.ThreadingHTTPServer, threading.Thread]:
    """Start a quiet server in a daemon thread; returns it and the thread."""
    server = make_server(directory, port)
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
