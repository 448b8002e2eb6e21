#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Keeps the documentation what it is for. docs/ is the user guide and
docs/design/ the maintainers' notes on the current design: they say how the
library is, so they may not speak of work sessions, quote commit hashes,
tracker numbers ("issue 5", "#12") or dates (history belongs in
CHANGELOG.md; the exceptions are the two results blocks of
docs/performance.md, between results:begin and results:end (generated
from vskin's own benchmark) and between ozz-results:begin and
ozz-results:end (the side-by-side run against ozz-animation), each stamped
with its commit and date), and every file they name
(src/..., include/..., tools/..., tests/..., scripts/..., docs/..., bench/,
fuzz/, examples/, or a relative Markdown link) must exist. README.md is
held to the same rules. CHANGELOG.md may quote hashes, numbers and dates,
but it does not speak of sessions either.

Usage: check_docs.py REPO_ROOT   (prints FILE:LINE: why; exits 1 on any)"""
import glob
import os
import re
import sys

SESSION = re.compile(r"(?<![A-Za-z0-9_])sessions?(?![A-Za-z0-9_])", re.I)
# A commit hash: 7 to 40 hex digits with at least one digit and one letter,
# standing alone (not part of a file name such as tutorial-e73f143.gltf).
HASH = re.compile(r"(?<![\w./#-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])"
                  r"[0-9a-f]{7,40}(?![\w/-]|\.\w)")
TRACKER = re.compile(r"\b(?:issues?|tickets?|bugs?|pull requests?|PRs?)"
                     r"\s+#?\d+\b", re.I)
HASH_NUMBER = re.compile(r"(?<![\w&/#])#\d+\b")
DATE = re.compile(r"\b(?:19|20)\d\d-[01]\d-[0-3]\d\b")
PATH = re.compile(r"(?<![\w./-])((?:src|include|tools|tests|scripts|docs|"
                  r"bench|fuzz|examples)/[\w.*/-]*)")
LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`[^`]*`")
BEGIN = ("<!-- results:begin -->", "<!-- ozz-results:begin -->")
END = ("<!-- results:end -->", "<!-- ozz-results:end -->")


def exists(root, rel):
    """Whether rel (relative to root; may hold * or ** patterns) names at
    least one file or folder."""
    rel = rel.rstrip("/")
    if any(c in rel for c in "*?["):
        return bool(glob.glob(os.path.join(root, rel), recursive=True))
    return os.path.exists(os.path.join(root, rel))


def check_doc(root, path, problems):
    rel_file = os.path.relpath(path, root)
    here = os.path.dirname(path)
    generated = False
    fence = False
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for number, line in enumerate(lines, 1):
        where = f"{rel_file}:{number}"
        stripped = line.strip()
        if stripped in BEGIN:
            generated = True
        elif stripped in END:
            generated = False
        if stripped.startswith("```"):
            fence = not fence
        for m in SESSION.finditer(line):
            problems.append(f"{where}: speaks of a session ('{m.group(0)}'); "
                            "history goes to CHANGELOG.md")
        prose = "" if fence else CODE_SPAN.sub("", line)
        for m in TRACKER.finditer(line):
            problems.append(f"{where}: a tracker reference ('{m.group(0)}')")
        for m in HASH_NUMBER.finditer(prose):
            problems.append(f"{where}: a tracker reference ('{m.group(0)}')")
        if not generated:
            for m in HASH.finditer(line):
                problems.append(f"{where}: a commit hash ('{m.group(0)}'); "
                                "history goes to CHANGELOG.md")
            for m in DATE.finditer(line):
                problems.append(f"{where}: a date ('{m.group(0)}'); history "
                                "goes to CHANGELOG.md")
        for m in PATH.finditer(line):
            name = m.group(1).rstrip(".,;:")
            if not exists(root, name):
                problems.append(f"{where}: {name} does not exist")
        for m in LINK.finditer(line):
            target = m.group(1).split("#", 1)[0]
            if not target or re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue  # an anchor on the same page, or a URL
            full = os.path.normpath(os.path.join(here, target))
            if not os.path.exists(full):
                problems.append(f"{where}: link to {target}, which does not "
                                "exist")


def check_changelog(root, problems):
    path = os.path.join(root, "CHANGELOG.md")
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            for m in SESSION.finditer(line):
                problems.append(f"CHANGELOG.md:{number}: speaks of a session "
                                f"('{m.group(0)}'); say what changed and when")


def main(root):
    docs = sorted(glob.glob(os.path.join(root, "docs", "**", "*.md"),
                            recursive=True))
    readme = os.path.join(root, "README.md")
    if os.path.exists(readme):
        docs.append(readme)
    problems = []
    for path in docs:
        check_doc(root, path, problems)
    check_changelog(root, problems)
    for p in problems:
        print(p)
    if problems:
        print(f"check_docs: {len(problems)} problem(s)")
        return 1
    print(f"check_docs: {len(docs)} pages and CHANGELOG.md are clean")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
