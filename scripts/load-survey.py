#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How many files of a collection vskin loads: runs `vskin info --quiet` on
every .gltf, .glb and .dae under the folders given and counts the files it
loads, the files it refuses and any other outcome (a crash or a time-out,
which must never happen). With --refused it lists each refused file with
the first line of its error; with --warned, the loaded files that carried
warnings. Two runs with different binaries compare two versions of vskin
over the same files (docs/formats.md, "Refused or repaired").

usage: scripts/load-survey.py [--vskin PATH] [--refused] [--warned] DIR...
"""
import argparse
import os
import subprocess
import sys

EXTENSIONS = (".gltf", ".glb", ".dae")


def files_under(folders):
    for folder in folders:
        for root, _, names in os.walk(folder):
            for name in sorted(names):
                if name.lower().endswith(EXTENSIONS):
                    yield os.path.join(root, name)


def survey(vskin, path):
    """('loaded'|'refused'|'crashed'|'timeout', first stderr line, warned)"""
    try:
        run = subprocess.run([vskin, "info", path], capture_output=True,
                             timeout=120, text=True, errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", "", False
    lines = run.stderr.splitlines()
    warned = any(": warning: " in line for line in lines)
    errors = [line for line in lines if ": warning: " not in line]
    first = errors[0] if errors else ""
    if run.returncode == 0:
        return "loaded", first, warned
    if run.returncode == 1:
        return "refused", first, warned
    return "crashed", f"exit {run.returncode}: {first}", warned


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--vskin", default="build/vskin")
    parser.add_argument("--refused", action="store_true")
    parser.add_argument("--warned", action="store_true")
    parser.add_argument("folders", nargs="+")
    args = parser.parse_args()
    counts = {}
    by_format = {}
    for path in files_under(args.folders):
        outcome, message, warned = survey(args.vskin, path)
        counts[outcome] = counts.get(outcome, 0) + 1
        ext = os.path.splitext(path)[1].lower()
        key = (ext, outcome)
        by_format[key] = by_format.get(key, 0) + 1
        if warned:
            counts["loaded with warnings"] = (
                counts.get("loaded with warnings", 0) + 1)
        if (outcome != "loaded" and args.refused) or \
                (outcome == "loaded" and warned and args.warned) or \
                outcome in ("crashed", "timeout"):
            print(f"{outcome}: {path}: {message}")
    total = sum(counts.get(k, 0)
                for k in ("loaded", "refused", "crashed", "timeout"))
    print(f"{total} files: " + ", ".join(
        f"{n} {k}" for k, n in sorted(counts.items())))
    for ext in EXTENSIONS:
        row = {o: n for (e, o), n in by_format.items() if e == ext}
        if row:
            print(f"  {ext}: " + ", ".join(f"{n} {o}"
                                            for o, n in sorted(row.items())))
    return 1 if counts.get("crashed") or counts.get("timeout") else 0


if __name__ == "__main__":
    sys.exit(main())
