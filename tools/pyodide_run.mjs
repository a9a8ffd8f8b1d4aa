#!/usr/bin/env node
// Run Python inside real Pyodide under Node, with this repository's `hearts` package importable.
//
// Usage (from anywhere; paths are resolved against the current directory):
//   node tools/pyodide_run.mjs [--mount HOST_DIR] SCRIPT.py [ARGS...]   run a file as __main__
//   node tools/pyodide_run.mjs [--mount HOST_DIR] -c CODE [ARGS...]     run a snippet
//   node tools/pyodide_run.mjs [--mount HOST_DIR] -m MODULE [ARGS...]   run a module, e.g. hearts.cards
//   node tools/pyodide_run.mjs - [ARGS...] < SCRIPT.py                  read the code from stdin
//
// Examples:
//   node tools/pyodide_run.mjs -c 'import sys, hearts; print(sys.version, hearts.Game.new(1))'
//   node tools/pyodide_run.mjs tools/bench.py --hands 200
//   node tools/pyodide_run.mjs tests/test_pyodide.py 1 2 3
//
// What it does:
//   - loads Pyodide from node_modules/pyodide of this repository (no network; Pyodide ships no
//     package wheels, so only the standard library is available);
//   - copies every .py file (and py.typed) of the repository's hearts/ package, recursively
//     (hearts/bots/ etc.), into the Pyodide filesystem at the SAME absolute path as on the host,
//     puts the repository root first on sys.path and makes it the working directory, so
//     `import hearts` works and tracebacks show real host paths;
//   - a SCRIPT file is copied to its own absolute path as well (only that file: sibling modules
//     are not copied) and its directory is put on sys.path, as CPython does;
//   - `--mount HOST_DIR` (repeatable) mounts a host directory read-write at the same path
//     (Emscripten NODEFS), for scripts that need data files or write results;
//   - sys.argv is [SCRIPT or '-c' or module path, ARGS...], as in CPython;
//   - stdout and stderr are forwarded byte for byte to this process's stdout and stderr;
//   - exit status: 0 on success, the code of sys.exit(code), or 1 with the traceback on stderr
//     if the Python code raises. Pyodide start-up problems exit with status 2.
//
// Cost: Pyodide under Node takes several seconds to start (the stdlib is compiled at start), so
// run many cases in one call rather than one process per case. Python in Pyodide under Node is
// slower than in a browser; use it for correctness and relative speed, not absolute budgets.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PYODIDE_DIR = path.join(REPO, "node_modules", "pyodide");
const PACKAGES = ["hearts"];

function usage(message) {
  if (message) process.stderr.write(`pyodide_run: ${message}\n`);
  process.stderr.write(
    "usage: node tools/pyodide_run.mjs [--mount DIR]... (SCRIPT.py | -c CODE | -m MODULE | -) [ARGS...]\n",
  );
  process.exit(2);
}

function parseArgs(argv) {
  const mounts = [];
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i];
    if (arg === "--mount") {
      if (i + 1 >= argv.length) usage("--mount needs a directory");
      mounts.push(path.resolve(argv[i + 1]));
      i += 2;
    } else if (arg === "-h" || arg === "--help") {
      usage();
    } else if (arg === "-c" || arg === "-m") {
      if (i + 1 >= argv.length) usage(`${arg} needs an argument`);
      const mode = arg === "-c" ? "code" : "module";
      return { mounts, mode, target: argv[i + 1], args: argv.slice(i + 2) };
    } else if (arg === "-") {
      return { mounts, mode: "stdin", target: fs.readFileSync(0, "utf8"), args: argv.slice(i + 1) };
    } else if (arg.startsWith("-")) {
      usage(`unknown option ${arg}`);
    } else {
      return { mounts, mode: "file", target: path.resolve(arg), args: argv.slice(i + 1) };
    }
  }
  usage("nothing to run");
}

// Copy the .py files (and py.typed markers) under hostDir to the same path in Pyodide's FS.
function copyTree(FS, hostDir) {
  FS.mkdirTree(hostDir);
  for (const entry of fs.readdirSync(hostDir, { withFileTypes: true })) {
    const full = path.join(hostDir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "__pycache__" && !entry.name.startsWith(".")) copyTree(FS, full);
    } else if (entry.isFile() && (entry.name.endsWith(".py") || entry.name === "py.typed")) {
      FS.writeFile(full, fs.readFileSync(full));
    }
  }
}

// Forward Pyodide's output bytes to a Node stream (copied: Pyodide reuses its buffer).
function writer(stream) {
  return {
    isatty: Boolean(stream.isTTY),
    write(buffer) {
      stream.write(Buffer.from(buffer));
      return buffer.length;
    },
  };
}

// The Python side: set sys.argv, run the target as __main__, turn the outcome into an exit status.
const RUNNER = `
def _pyodide_run(mode, target, argv):
    import runpy
    import sys
    import traceback

    sys.argv = list(argv)
    try:
        if mode == "file":
            runpy.run_path(target, run_name="__main__")
        elif mode == "module":
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        else:
            code = compile(target, "<string>" if mode == "code" else "<stdin>", "exec")
            exec(code, {"__name__": "__main__", "__builtins__": __builtins__})
    except SystemExit as exc:
        status = exc.code
        if status is None:
            status = 0
        elif not isinstance(status, int):
            print(status, file=sys.stderr)
            status = 1
    except BaseException as exc:
        tb = exc.__traceback__
        # Hide this wrapper's and runpy's frames, as CPython does for its own.
        hidden = ("<pyodide_run>", "<frozen runpy>", runpy.__file__)
        while tb is not None and tb.tb_frame.f_code.co_filename in hidden:
            tb = tb.tb_next
        traceback.print_exception(type(exc), exc, tb)
        status = 1
    else:
        status = 0
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    return status
`;

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(PYODIDE_DIR, "pyodide.mjs"))) {
    process.stderr.write(`pyodide_run: ${PYODIDE_DIR} is missing: run \`npm ci\` in ${REPO}\n`);
    process.exit(2);
  }
  if (opts.mode === "file" && !fs.existsSync(opts.target)) {
    process.stderr.write(`pyodide_run: can't open file '${opts.target}'\n`);
    process.exit(2);
  }

  const { loadPyodide } = await import(pathToFileURL(path.join(PYODIDE_DIR, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL: PYODIDE_DIR + path.sep,
    stdout: (line) => process.stdout.write(`${line}\n`), // start-up messages only
    stderr: (line) => process.stderr.write(`${line}\n`),
  });
  pyodide.setStdout(writer(process.stdout));
  pyodide.setStderr(writer(process.stderr));

  const FS = pyodide.FS;
  for (const name of PACKAGES) copyTree(FS, path.join(REPO, name));
  for (const dir of opts.mounts) {
    FS.mkdirTree(dir);
    FS.mount(FS.filesystems.NODEFS, { root: dir }, dir);
  }
  const sysPath = [REPO];
  if (opts.mode === "file") {
    const dir = path.dirname(opts.target);
    if (!opts.mounts.some((m) => opts.target.startsWith(m + path.sep))) {
      FS.mkdirTree(dir);
      FS.writeFile(opts.target, fs.readFileSync(opts.target));
    }
    sysPath.unshift(dir);
  }
  FS.chdir(REPO);

  const argv0 = { file: opts.target, code: "-c", module: opts.target, stdin: "-" }[opts.mode];
  const globals = pyodide.globals;
  globals.set("_pyodide_run_path", pyodide.toPy(sysPath));
  pyodide.runPython(
    "import sys\nfor _p in reversed(_pyodide_run_path):\n    sys.path.insert(0, _p)\n"
      + "del _p, _pyodide_run_path\n" + RUNNER,
    { filename: "<pyodide_run>" },
  );
  const run = globals.get("_pyodide_run");
  const status = run(opts.mode, opts.target, pyodide.toPy([argv0, ...opts.args]));
  run.destroy();
  process.exitCode = status;
  // Exit once our output is written (Pyodide may keep handles open otherwise).
  let pending = 2;
  const done = () => {
    pending -= 1;
    if (pending === 0) process.exit(status);
  };
  process.stdout.write("", done);
  process.stderr.write("", done);
}

main().catch((err) => {
  process.stderr.write(`pyodide_run: ${err && err.stack ? err.stack : err}\n`);
  process.exit(2);
});
