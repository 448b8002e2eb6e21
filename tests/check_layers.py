#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The source tree follows the pipeline, one folder a stage, and a stage
may include only its own headers and those of the stages it is built on
(the table below, which src/CMakeLists.txt mirrors in its libraries). A
file that includes across a layer the wrong way, a folder the table does not
name, or a public header of a library above its own fails this check. The
programs built on the libraries (PROGRAMS: the CLI in tools/, the
benchmarks in bench/) include only the public headers and their own. The
tests mirror the tree: a folder of tests names a folder of src/ (or tools/,
the CLI), except those listed in OTHER_TESTS.

Usage: check_layers.py ROOT"""
import os
import re
import sys

# stage: the stages whose headers it may include (besides its own).
BELOW = {
    "base": set(),
    "format": {"base"},
    "asset": {"base"},
    "load": {"base", "format", "asset"},
    "pose": {"base", "asset"},
    "skin": {"base", "asset", "pose"},
    "write": {"base", "format", "asset", "pose", "skin"},
    "bake": {"base", "asset", "pose", "skin", "write"},
    "edit": {"base", "asset", "pose", "skin", "write"},
    "validate": {"base", "format", "asset", "load"},
    "render": {"base", "format", "asset", "pose", "skin"},
}
# Which public header each library's stages may include: the runtime's
# stages see only the runtime's contract.
RUNTIME = {"base", "format", "asset", "load", "pose", "skin"}
TOOLS = {"write", "bake", "edit", "validate"}
PUBLIC = {
    "vskin/vskin.h": RUNTIME | TOOLS | {"render"},
    "vskin/vskin_tools.h": TOOLS,
    "vskin/vskin_render.h": {"render"},
}
# Programs that use the libraries as any user does: through the public
# headers (PUBLIC) and the shipped libraries only. program: the other
# folders whose headers it may include (the CLI links the benchmarks).
PROGRAMS = {"tools": ("bench",), "bench": ()}
# Test folders that test no one folder of the source.
OTHER_TESTS = {
    "validator": "outputs checked by the Khronos glTF-Validator (npm)",
    "consumers": "programs that use the installed library",
    "reference": "the reference poses' generator",
    "data": "test inputs",
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def check_program(root, program, problems):
    """A program's quoted includes: a public header, one of its own or one
    of the folders PROGRAMS lets it use."""
    folder = os.path.join(root, program)
    allowed = (program,) + PROGRAMS[program]
    if not os.path.isdir(folder):
        return
    for name in sorted(os.listdir(folder)):
        if not name.endswith((".c", ".h")):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                own = "/" not in target and any(
                    os.path.isfile(os.path.join(root, a, target))
                    for a in allowed)
                if target not in PUBLIC and not own:
                    problems.append(
                        f"{program}/{name}:{number}: includes {target}: "
                        f"{program}/ uses the public headers (vskin/*.h) "
                        f"and those of {', '.join(a + '/' for a in allowed)} only")


def main(root):
    src = os.path.join(root, "src")
    problems = []
    for folder, _, files in os.walk(src):
        rel = os.path.relpath(folder, src)
        stage = rel.split(os.sep)[0]
        for name in sorted(files):
            if not name.endswith((".c", ".cpp", ".h")):
                continue
            path = os.path.join(folder, name)
            where = os.path.relpath(path, root)
            if stage not in BELOW:
                problems.append(f"{where}: folder src/{stage} is no stage")
                continue
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    if target in PUBLIC:
                        if stage not in PUBLIC[target]:
                            problems.append(
                                f"{where}:{number}: stage {stage} includes "
                                f"{target}, the contract of a library "
                                f"built on it")
                        continue
                    if "/" not in target:
                        problems.append(
                            f"{where}:{number}: include {target} by its "
                            f"path under src/")
                        continue
                    to = target.split("/")[0]
                    if not os.path.exists(os.path.join(src, target)):
                        problems.append(
                            f"{where}:{number}: {target} does not exist")
                    elif to != stage and to not in BELOW[stage]:
                        problems.append(
                            f"{where}:{number}: stage {stage} includes "
                            f"{target}: {to} is not below {stage}")
    for program in PROGRAMS:
        check_program(root, program, problems)
    tests = os.path.join(root, "tests")
    for folder, _, files in os.walk(tests):
        rel = os.path.relpath(folder, tests)
        if rel == "." or rel.split(os.sep)[0] in OTHER_TESTS:
            continue
        if not any(n.startswith("test_") and n.endswith(".c") for n in files):
            continue
        if not (os.path.isdir(os.path.join(src, rel)) or
                os.path.isdir(os.path.join(root, rel))):
            problems.append(f"tests/{rel}: mirrors no folder of src/ or "
                            f"the CLI")
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} problem(s)")
        return 1
    print("check_layers: every include goes down the pipeline, and the "
          "programs use the public headers only")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
