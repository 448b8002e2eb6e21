#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when a comment in the project's C sources says what comments here
must not: comments say why (the rule, the hazard, the design choice) and
leave history to CHANGELOG.md and measurements to docs/performance.md. So a
comment may not name a tracker issue or a work session, quote a commit hash
or, in the library, tools, benchmarks and fuzzers, a measured figure (a
percentage, a rate, a time, a before -> after pair); and every source file it
names must exist. Tests may state tolerances, so figures are allowed there.
Also checks that every C file opens, after its license line, with a comment
saying what it provides. Usage: check_comments.py REPO_ROOT"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
CODE_DIRS = ("src", "include", "tools", "bench", "fuzz", "examples")
TEST_DIRS = ("tests",)

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
TRACKER = re.compile(r"\b(issue|ticket|task)s?\s*#?\d+|#\d{2,}\b", re.I)
SESSION = re.compile(r"\bsessions?\b", re.I)
HASH = re.compile(r"(?<![0-9A-Za-z_])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])"
                  r"[0-9a-f]{7,40}(?![0-9A-Za-z_])")
FIGURE = re.compile(
    r"\d[\d.,]*\s?(%|Mvert/s|Mverts|GB/s|MB/s|µs|us/|ns/|cycles/)"
    r"|\d[\d.,]*\s?(us|ns|ms)\b(?!-)"
    r"|\b\d[\d.,]*\s?->\s?\d[\d.,]*(?!\s?[a-zA-Z_(])")
FILE_NAME = re.compile(
    r"(?<![\w./-])((?:(?:src|include|tests|tools|bench|fuzz|docs|scripts|"
    r"cmake|examples|data)/)?[\w-]+(?:/[\w-]+)*\.(?:c|h|md|py|sh|cmake))\b")


def sources(dirs):
    for d in dirs:
        for base, _, names in os.walk(os.path.join(ROOT, d)):
            for n in names:
                if n.endswith((".c", ".cpp", ".h")):
                    yield os.path.join(base, n)


def known_files():
    names, paths = set(), set()
    for base, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs
                   if not d.startswith((".", "build", "node_modules"))]
        for n in files:
            rel = os.path.relpath(os.path.join(base, n), ROOT)
            names.add(n)
            paths.add(rel)
    return names, paths


def main():
    names, paths = known_files()
    problems = []
    for path in list(sources(CODE_DIRS)) + list(sources(TEST_DIRS)):
        rel = os.path.relpath(path, ROOT)
        in_tests = rel.startswith(TEST_DIRS)
        text = open(path, encoding="utf-8").read()
        lines = text.split("\n")
        first = 1 if "SPDX-License-Identifier" in lines[0] else 0
        if not lines[first].lstrip().startswith(("/*", "//")):
            problems.append(f"{rel}:{first + 1}: no opening comment saying "
                            "what the file provides")
        for m in COMMENT.finditer(text):
            c = m.group(0)
            line = text.count("\n", 0, m.start()) + 1
            checks = [(TRACKER, "a tracker number"), (SESSION, "a session"),
                      (HASH, "a commit hash")]
            if not in_tests:
                checks.append((FIGURE, "a measured figure"))
            for pat, what in checks:
                for f in pat.finditer(c):
                    at = line + c.count("\n", 0, f.start())
                    problems.append(f"{rel}:{at}: {what}: '{f.group(0)}'")
            for f in FILE_NAME.finditer(c):
                name = f.group(1)
                if "/" in name:
                    ok = (name in paths or
                          os.path.normpath(os.path.join("src", name)) in paths
                          or os.path.normpath(os.path.join(os.path.dirname(
                              rel), name)) in paths or
                          os.path.normpath(os.path.join("tests", name)) in paths)
                else:
                    ok = name in names or not name.endswith((".c", ".h"))
                if not ok:
                    at = line + c.count("\n", 0, f.start())
                    problems.append(f"{rel}:{at}: names a file that does not "
                                    f"exist: '{name}'")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} comment problems (tests/check_comments.py)")
        return 1
    print("comments: no tracker numbers, sessions, hashes, figures or "
          "missing files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
