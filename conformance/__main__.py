"""``python -m sevens_rules.conformance [URL]``: replay the golden playthroughs against a service.

With a URL (``http://127.0.0.1:8000``) the requests go to that server; without one (or with
``--in-process``) to this package's own application, called in process. Every difference is printed as
``file: step N (op, surface): /json/path: expected ..., got ...``; the exit status is 0 when there is
none, 1 otherwise. ``--update`` writes the files afresh from the in-process service instead (with
``--files``, those files only).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from .playthroughs import FOLDER, Recorder, dump, variants
from .replay import SURFACES, Replayer
from .transport import AsgiTransport, HttpTransport, Transport


def in_process() -> Transport:
    """The service of this package, without sealing keys, called in process."""
    from ..api.app import create_app
    from ..api.limits import Settings

    return AsgiTransport(create_app(Settings(), None))


def update(folder: Path = FOLDER, only: Sequence[Path] = ()) -> int:
    """Write every playthrough file from the in-process service and remove the files no variant names;
    with ``only``, write those files alone (1, writing nothing, when one of them names no variant)."""
    transport = in_process()
    status, listing = transport.get("/v1/games")
    if status != 200:
        raise RuntimeError(f"GET /v1/games answered {status}")
    wanted = variants(listing["games"])
    names = {variant.path.name for variant in wanted}
    if only:
        named = {path.name for path in only}
        if named - names:
            print(f"no playthrough is named {', '.join(sorted(named - names))}", file=sys.stderr)
            return 1
        wanted = [variant for variant in wanted if variant.path.name in named]
    folder.mkdir(parents=True, exist_ok=True)
    for variant in wanted:
        contents = Recorder(transport, variant).play()
        dump(folder / variant.path.name, contents)
        print(f"{variant.path.name}: {contents['moves']} moves, {len(contents['steps'])} steps", flush=True)
    if not only:
        for stale in folder.glob("*.json.xz"):
            if stale.name not in names:
                stale.unlink()
    return 0


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m sevens_rules.conformance", description=__doc__)
    parser.add_argument("url", nargs="?", help="base URL of the service (default: in process)")
    parser.add_argument("--in-process", action="store_true", help="replay against the in-process app")
    parser.add_argument("--update", action="store_true", help="regenerate the files from the engine")
    parser.add_argument("--surface", choices=(*SURFACES, "both"), default="both")
    parser.add_argument("--every", type=int, default=1, help="replay one step in N (refusals always)")
    parser.add_argument(
        "--files", nargs="*", type=Path, help="playthrough files to replay or --update (default: all)"
    )
    parser.add_argument("--exact-text", action="store_true", help="compare problems' titles and details")
    parser.add_argument("--max-shown", type=int, default=50, help="differences printed at most")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.update:
        return update(only=args.files or ())
    transport = in_process() if args.in_process or not args.url else HttpTransport(args.url)
    surfaces = SURFACES if args.surface == "both" else (args.surface,)
    files = args.files or sorted(FOLDER.glob("*.json.xz"))
    started = time.perf_counter()
    replayer = Replayer(transport, surfaces, exact_text=args.exact_text)
    shown = total = 0
    for path in files:
        found = replayer.replay(path, every=args.every)
        total += len(found)
        for difference in found[: max(0, args.max_shown - shown)]:
            print(difference)
            shown += 1
    transport.close()
    elapsed = time.perf_counter() - started
    print(
        f"{len(files)} files, {replayer.requests} requests ({', '.join(surfaces)}), "
        f"{total} differences, {elapsed:.1f} s"
    )
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main())
