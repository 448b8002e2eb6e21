# SPDX-License-Identifier: MIT
"""Batches: many times or many poses of one asset skinned in one C call
(vs_crowd_run) across a thread pool (vs_context), into one numpy array."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np

from . import _util
from ._errors import ArgumentError
from ._ffi import ffi, lib
from .asset import Asset, ClipRef
from .pose import Pose


class Context:
    """A thread pool for batch calls (vs_context): ``threads`` workers, the
    calling thread included (0 or 1: the caller alone). A context runs one
    call at a time; calls from several Python threads on one context wait
    for each other."""

    def __init__(self, threads: int = 0) -> None:
        if threads < 0 or threads > 256:
            raise ArgumentError("Context: threads must be 0 .. 256")
        options = ffi.new("vs_context_options *")
        options.thread_count = threads
        out = ffi.new("vs_context **")
        _util.call(lib.vs_context_create, options, out)
        self._ptr = ffi.gc(out[0], lib.vs_context_free)
        self._lock = threading.Lock()

    @property
    def threads(self) -> int:
        """Participants of a call, the caller included."""
        return int(lib.vs_context_thread_count(self._ptr))


_default = threading.local()


def _context_for(threads: Optional[int]) -> Context:
    """The calling thread's own context of ``threads`` threads (None: one
    per CPU), made once per thread."""
    count = (os.cpu_count() or 1) if threads is None else threads
    cache = getattr(_default, "contexts", None)
    if cache is None:
        cache = _default.contexts = {}
    if count not in cache:
        cache[count] = Context(count)
    return cache[count]


@dataclass(frozen=True)
class Slot:
    """Where one skinned primitive lies in a batch's vertex axis: vertices
    [first, first + vertex_count) are primitive ``primitive`` of the mesh
    of node ``node``."""
    node: int
    primitive: int
    first: int
    vertex_count: int


@dataclass(frozen=True)
class Batch:
    """The result of skin_batch: positions (T, V, 3) float32, normals
    (T, V, 3) or None, and the slots that say which primitive each vertex
    range is. ``raw`` is the buffer the C call wrote, (T, F) float32
    (vs_crowd_layout's layout)."""
    positions: np.ndarray
    normals: Optional[np.ndarray]
    slots: tuple[Slot, ...]
    raw: np.ndarray


@dataclass(frozen=True)
class _SlotLayout:
    node: int
    primitive: int
    vertex_count: int
    positions_offset: int
    normals_offset: Optional[int]


def layout(asset: Asset,
           normals: bool = False) -> tuple[list[_SlotLayout], int]:
    """The crowd layout (vs_crowd_layout): each slot's node, primitive,
    vertex count and offsets in floats, and the floats per instance."""
    count = ffi.new("uint32_t *")
    floats = ffi.new("size_t *")
    _util.call(lib.vs_crowd_layout, asset._ptr, normals, ffi.NULL, 0, count,
               floats)
    slots = ffi.new("vs_crowd_slot[]", max(1, count[0]))
    _util.call(lib.vs_crowd_layout, asset._ptr, normals, slots, count[0],
               count, floats)
    none = (1 << (8 * ffi.sizeof("size_t"))) - 1
    return [_SlotLayout(int(slots[i].node), int(slots[i].primitive),
                        int(slots[i].vertex_count),
                        int(slots[i].positions_offset),
                        None if slots[i].normals_offset == none
                        else int(slots[i].normals_offset))
            for i in range(count[0])], int(floats[0])


def skin_batch(asset: Asset, *, clip: Optional[ClipRef] = 0,
               times: Any = None, poses: Optional[Sequence[Pose]] = None,
               loop: bool = False, normals: bool = False,
               raw_weights: Optional[bool] = None,
               context: Optional[Context] = None,
               threads: Optional[int] = None,
               out: Optional[np.ndarray] = None) -> Batch:
    """Skins many instances of ``asset`` in one call, across a thread pool,
    with the GIL released while C runs: one instance per entry of ``times``
    (clip ``clip`` sampled at each, on a fresh pose), or per entry of
    ``poses`` (each as it is, or with ``times`` given too, the clip sampled
    on top of it). Results are world space, linear blend skinning, and
    identical to skinning each instance alone; morph targets are not
    applied on this path, and only skinned primitives are included (see
    ``slots``).

    ``out`` may be a C-contiguous float32 (T, F) array for the raw layout
    (F from vskin.batch.layout); ``context`` a Context to run on, else one
    of ``threads`` threads (None: one per CPU) kept per calling thread."""
    if times is None and poses is None:
        raise ArgumentError("skin_batch: give times, poses or both")
    t = None if times is None else np.asarray(times, dtype=np.float32).ravel()
    count = len(poses) if poses is not None else int(t.shape[0])  # type: ignore
    if t is not None and t.shape[0] != count:
        raise ArgumentError("skin_batch: as many times as poses")
    clip_index = -1
    if t is not None:
        if clip is None:
            raise ArgumentError("skin_batch: times need a clip")
        clip_index = asset.clip_index(clip)
    if poses is None:
        poses = [Pose(asset) for _ in range(count)]
    else:
        for p in poses:
            if not isinstance(p, Pose) or p.asset._ptr != asset._ptr:
                raise ArgumentError("skin_batch: every pose must be a Pose "
                                    "of this asset")
        if len({id(p) for p in poses}) != count:
            raise ArgumentError("skin_batch: a pose appears twice")
    slots, floats = layout(asset, normals)
    raw = _util.float_buffer(out, (count, floats), "skin_batch out")
    instances = ffi.new("vs_crowd_instance[]", max(1, count))
    base = _util.float_ptr(raw)
    identity = [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0]
    mode = lib.VS_TIME_LOOP if loop else lib.VS_TIME_CLAMP
    for i in range(count):
        instances[i].pose = poses[i]._ptr
        instances[i].clip = clip_index
        instances[i].time = float(t[i]) if t is not None else 0.0
        instances[i].time_mode = mode
        instances[i].placement = identity
        instances[i].output = base + i * floats
    job = ffi.new("vs_crowd_job *")
    job.asset = asset._ptr
    job.instance_count = count
    job.instances = instances
    job.normals = normals
    raw_w = asset.raw_weights if raw_weights is None else raw_weights
    job.flags = lib.VS_SKIN_RAW_WEIGHTS if raw_w else 0
    ctx = context if context is not None else _context_for(threads)
    if count:
        with ctx._lock:
            _util.call(lib.vs_crowd_run, ctx._ptr, job)
    return _assemble(raw, slots, normals)


def _assemble(raw: np.ndarray, slots: list[_SlotLayout],
              normals: bool) -> Batch:
    count = raw.shape[0]
    infos, first = [], 0
    for s in slots:
        infos.append(Slot(s.node, s.primitive, first, s.vertex_count))
        first += s.vertex_count
    total = first
    with_normals = [s for s in slots if s.normals_offset is not None]
    if not normals or not slots:
        # Positions only: the slots' positions follow each other.
        positions = raw[:, :3 * total].reshape(count, total, 3)
        return Batch(positions, None, tuple(infos), raw)
    if len(slots) == 1:
        s = slots[0]
        positions = raw[:, :3 * total].reshape(count, total, 3)
        nor = None
        if with_normals:
            off = s.normals_offset
            nor = raw[:, off:off + 3 * total].reshape(count, total, 3)
        return Batch(positions, nor, tuple(infos), raw)
    positions = np.empty((count, total, 3), dtype=np.float32)
    nor = np.empty((count, total, 3), dtype=np.float32) \
        if len(with_normals) == len(slots) else None
    for info, s in zip(infos, slots):
        n = info.vertex_count
        off = s.positions_offset
        positions[:, info.first:info.first + n] = \
            raw[:, off:off + 3 * n].reshape(count, n, 3)
        if nor is not None:
            off = s.normals_offset
            nor[:, info.first:info.first + n] = \
                raw[:, off:off + 3 * n].reshape(count, n, 3)
    return Batch(positions, nor, tuple(infos), raw)
