# SPDX-License-Identifier: MIT
"""The binding's declarations match the C headers: every struct's size and
field offsets and every enum value (compiled from include/vskin/*.h), and
every declared function exists in one of the libraries."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

import vskin
from vskin import _cdef
from vskin._ffi import ffi, lib, render_lib, tools_lib
from conftest import ROOT


def expected_lines() -> tuple[list[str], list[str]]:
    """printf statements for the C side and the lines cffi predicts."""
    code, want = [], []
    for name in _cdef.STRUCTS:
        t = ffi.typeof(name)
        code.append(f'printf("{name} %zu\\n", sizeof({name}));')
        want.append(f"{name} {ffi.sizeof(t)}")
        for field, info in t.fields:
            code.append(f'printf("{name}.{field} %zu\\n", '
                        f'offsetof({name}, {field}));')
            want.append(f"{name}.{field} {info.offset}")
    typedefs = ffi.list_types()[0]
    for name in sorted(typedefs):
        t = ffi.typeof(name)
        if t.kind != "enum":
            continue
        code.append(f'printf("{name} %zu\\n", sizeof({name}));')
        want.append(f"{name} {ffi.sizeof(t)}")
        for value, constant in sorted(t.elements.items()):
            code.append(f'printf("{constant} %lld\\n", (long long){constant});')
            want.append(f"{constant} {value}")
    return code, want


def test_structs_and_enums_match_the_headers(tmp_path):
    cc = os.environ.get("VSKIN_CC") or shutil.which("cc")
    if not cc:
        pytest.skip("no C compiler to read the headers with")
    include = os.environ.get("VSKIN_INCLUDE_DIR", str(ROOT / "include"))
    code, want = expected_lines()
    source = tmp_path / "layout.c"
    source.write_text(
        "#include <stddef.h>\n#include <stdio.h>\n"
        '#include "vskin/vskin.h"\n#include "vskin/vskin_tools.h"\n'
        '#include "vskin/vskin_render.h"\n'
        "int main(void)\n{\n" + "\n".join(code) + "\nreturn 0;\n}\n")
    exe = tmp_path / "layout"
    subprocess.run([cc, "-std=c11", "-I", include, str(source), "-o",
                    str(exe)], check=True)
    got = subprocess.run([str(exe)], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    assert got == want


def test_every_declared_function_exists():
    libraries = [lib] + [x for x in (tools_lib, render_lib) if x is not None]
    missing = []
    for name in dir(lib):
        if not name.startswith("vs_"):
            continue
        found = False
        for library in libraries:
            try:
                getattr(library, name)
                found = True
                break
            except AttributeError:
                pass
        tools_only = name in _cdef.TOOLS and tools_lib is None
        render_only = name in _cdef.RENDER and render_lib is None
        if not found and not (tools_only or render_only):
            missing.append(name)
    assert not missing
    assert vskin.version()
