#!/usr/bin/env python3
"""Builds this directory's step into a WebAssembly component: `python3 build.py`.

`python3 build.py [--step policy|provider|economics] [--source FILE] [--out FILE] [--wit DIR]`
overrides the defaults below (the repository's CI builds its samples this way). Each build
also writes the typed bindings of the step's world (dataclasses for the WIT records) into
`bindings/`, for your editor or type checker; the build itself generates its own.

componentize-py pre-initialises the interpreter with your module imported, so a call starts
with your code loaded.

The build ends with `pixgate policy seal` (the `pixgate` on your PATH, or the one `$PIXGATE`
names): the interpreter's libc imports WASI files and sockets, which pixgate refuses at upload,
and sealing answers them inside the component with none. `--no-seal` leaves componentize-py's
output as it is.
"""

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import time

# Written by `pixgate policy new`.
STEP = "provider"
NAME = "pixgate-step"

WORLDS = {
    "policy": "policy-step",
    "provider": "provider-step",
    "economics": "economics-step",
}


def componentize_py(*args: str) -> None:
    """Runs the pinned componentize-py from this interpreter's packages (no PATH needed)."""
    launcher = "import sys, componentize_py; sys.argv[0] = 'componentize-py'; componentize_py.script()"
    subprocess.run([sys.executable, "-c", launcher, *args], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step", default=STEP, choices=sorted(WORLDS))
    parser.add_argument("--source", help="the step's module (default: src/<step>.py)")
    parser.add_argument("--out", default=f"dist/{NAME}.wasm")
    parser.add_argument("--wit", default="wit")
    parser.add_argument("--no-seal", action="store_true", help="leave the output unsealed")
    args = parser.parse_args()

    world = WORLDS[args.step]
    source = pathlib.Path(args.source or f"src/{args.step}.py")
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)

    bindings = pathlib.Path("bindings")
    shutil.rmtree(bindings, ignore_errors=True)
    componentize_py("-d", args.wit, "-w", world, "-q", "bindings", str(bindings))

    started = time.monotonic()
    componentize_py(
        "-d", args.wit, "-w", world, "-q",
        "componentize", "-p", str(source.parent), source.stem, "-o", str(out),
    )
    seconds = time.monotonic() - started
    size = out.stat().st_size / 1e6
    print(f"built {out} ({world}, {size:.1f} MB) from {source} in {seconds:.1f} s")

    if not args.no_seal:
        pixgate = os.environ.get("PIXGATE") or "pixgate"
        try:
            sealed = subprocess.run([pixgate, "policy", "seal", str(out)])
        except OSError as e:
            sys.exit(
                f"could not run `{pixgate} policy seal {out}` ({e.strerror}): put pixgate on "
                "your PATH or name it in $PIXGATE; pixgate refuses an unsealed upload"
            )
        if sealed.returncode != 0:
            sys.exit(sealed.returncode)


if __name__ == "__main__":
    main()
