# SPDX-License-Identifier: MIT
"""Pose: the animated state of one instance of an asset, its matrices, and
skinning one mesh instance into numpy arrays."""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Sequence, Union

import numpy as np

from . import _util
from ._errors import ArgumentError
from ._ffi import ffi, lib
from .asset import Asset, ClipRef, PathLike


class Skinned(NamedTuple):
    """Skinned vertices of a mesh instance: positions (V, 3), normals
    (V, 3) or None, tangents (V, 4) or None, all float32."""
    positions: np.ndarray
    normals: Optional[np.ndarray]
    tangents: Optional[np.ndarray]


class Pose:
    """The animated state of one instance of an asset (vs_pose).

    A pose belongs to one thread at a time; any number of poses of one
    asset may be used on as many threads at once. Every call that changes
    the local transforms also recomputes the world matrices, so the
    matrices and skinned vertices read afterwards are current."""

    def __init__(self, asset: Asset) -> None:
        if not isinstance(asset, Asset):
            raise ArgumentError("Pose: needs a vskin.Asset")
        self.asset = asset
        out = ffi.new("vs_pose **")
        _util.call(lib.vs_pose_create, asset._ptr, out)
        # The finaliser's closure holds the asset's memory, which must
        # outlive the pose, whatever order the collector frees them in.
        owner = asset._ptr
        self._ptr = ffi.gc(out[0], lambda p, o=owner: lib.vs_pose_free(p))

    # -- the local state ---------------------------------------------------
    def reset(self) -> "Pose":
        """Every node back to its rest transform and default morph
        weights."""
        lib.vs_pose_reset(self._ptr)
        lib.vs_pose_update_world(self._ptr)
        return self

    def sample(self, clip: ClipRef, time: float, loop: bool = False) -> "Pose":
        """Applies clip ``clip`` (index, name or Clip) at ``time`` seconds
        on top of the current local transforms (channels the clip lacks
        keep their values: call reset() first for the clip alone, as
        `vskin pose` does). A time outside the clip holds its first or last
        key, or wraps with ``loop``."""
        index = self.asset.clip_index(clip)
        mode = lib.VS_TIME_LOOP if loop else lib.VS_TIME_CLAMP
        _util.call(lib.vs_pose_sample, self._ptr, index, float(time), mode)
        lib.vs_pose_update_world(self._ptr)
        return self

    def set_local(self, node: Union[int, Sequence[int]],
                  translation: Any = None, rotation: Any = None,
                  scale: Any = None) -> "Pose":
        """Sets the local transform of one node, or of several at once
        (``node`` a sequence of K indices and each part a (K, n) array).
        ``rotation`` is a unit quaternion (x, y, z, w). A part left out
        takes the node's rest value."""
        nodes = np.atleast_1d(np.asarray(node, dtype=np.int64))
        count = nodes.shape[0]
        if nodes.ndim != 1 or np.any(nodes < 0) or np.any(
                nodes >= len(self.asset.nodes)):
            raise ArgumentError(f"set_local: node {node!r} out of range")

        def part(values: Any, width: int, label: str) -> Optional[np.ndarray]:
            if values is None:
                return None
            a = np.asarray(values, dtype=np.float32)
            a = a.reshape(1, width) if a.shape == (width,) else a
            if a.shape != (count, width):
                raise ArgumentError(
                    f"set_local: {label} needs shape ({count}, {width})")
            return a

        t = part(translation, 3, "translation")
        r = part(rotation, 4, "rotation")
        s = part(scale, 3, "scale")
        trs = ffi.new("vs_trs *")
        for k, n in enumerate(nodes.tolist()):
            rest = self.asset.nodes[n]
            trs.translation = list(t[k] if t is not None
                                   else rest.rest_translation)
            trs.rotation = list(r[k] if r is not None else rest.rest_rotation)
            trs.scale = list(s[k] if s is not None else rest.rest_scale)
            lib.vs_pose_set_local(self._ptr, n, trs)
        lib.vs_pose_update_world(self._ptr)
        return self

    # -- matrices ------------------------------------------------------------
    @property
    def local(self) -> np.ndarray:
        """Every node's current local matrix, (N, 4, 4) float32 [row, col]
        (a copy)."""
        count = len(self.asset.nodes)
        out = np.empty((count, 16), dtype=np.float32)
        ptr = _util.float_ptr(out)
        for i in range(count):
            lib.vs_pose_get_local(self._ptr, i, ptr + 16 * i)
        return _util.matrices(out)

    @property
    def world(self) -> np.ndarray:
        """Every node's world matrix, (N, 4, 4) float32 [row, col] (a
        copy)."""
        count = len(self.asset.nodes)
        out = np.empty((count, 16), dtype=np.float32)
        ptr = _util.float_ptr(out)
        for i in range(count):
            ffi.memmove(ptr + 16 * i, lib.vs_pose_world(self._ptr, i), 64)
        return _util.matrices(out)

    def morph_weights(self, node: int) -> np.ndarray:
        """The current morph weights of a mesh node (empty when none)."""
        if not 0 <= node < len(self.asset.nodes):
            raise ArgumentError(f"morph_weights: node {node} out of range")
        count = ffi.new("uint32_t *")
        ptr = lib.vs_pose_morph_weights(self._ptr, node, count)
        if ptr == ffi.NULL or count[0] == 0:
            return np.zeros(0, dtype=np.float32)
        return np.frombuffer(ffi.buffer(ptr, 4 * count[0]),
                             dtype=np.float32).copy()

    def joint_matrices(self, skin: int = 0, relative_to: Optional[int] = None,
                       out: Optional[np.ndarray] = None) -> np.ndarray:
        """Joint matrices of skin ``skin``, (J, 4, 4) float32 indexed
        [joint, row, col]: J_j = R^-1 * G(joint_j) * IBM_j * BSM, with R the
        world matrix of node ``relative_to`` (None: the identity).

        ``out``, when given, is a C-contiguous float32 (J, 16) array that
        receives the column-major matrices (the layout GPUs take); the
        result is then a view of it."""
        if not 0 <= skin < len(self.asset.skins):
            raise ArgumentError(f"joint_matrices: no skin {skin}")
        count = self.asset.skins[skin].joint_count
        flat = _util.float_buffer(out, (count, 16), "joint_matrices out")
        rel = -1 if relative_to is None else int(relative_to)
        _util.call(lib.vs_pose_joint_matrices, self._ptr, skin, rel,
                   _util.float_ptr(flat))
        return _util.matrices(flat)

    # -- skinning ------------------------------------------------------------
    def _options(self, method: str, space: str,
                 raw_weights: Optional[bool]) -> Any:
        options = ffi.new("vs_pose_mesh_options *")
        raw = self.asset.raw_weights if raw_weights is None else raw_weights
        options.skin_flags = lib.VS_SKIN_RAW_WEIGHTS if raw else 0
        options.space = _util.space_code(space)
        options.method = _util.method_code(method)
        return options

    def skin(self, instance: int, primitive: Optional[int] = None, *,
             method: str = "linear", space: str = "world",
             raw_weights: Optional[bool] = None,
             positions: Optional[np.ndarray] = None,
             normals: Optional[np.ndarray] = None,
             tangents: Optional[np.ndarray] = None) -> Skinned:
        """Skins mesh instance ``instance`` (an index into asset.instances)
        in this pose: morph targets, then the joint matrices (or the node's
        world matrix for a rigid mesh), as vs_pose_mesh_primitive.

        With ``primitive`` None every primitive of the mesh is skinned and
        their vertices follow each other (the order of `vskin pose`'s OBJ).
        ``method`` is "linear" or "dq" (dual quaternions), ``space`` "world"
        or "skeleton". Results go into ``positions``, ``normals`` and
        ``tangents`` when given (C-contiguous float32 arrays of the right
        shape), else into new arrays; normals and tangents are None when a
        primitive lacks them."""
        asset = self.asset
        if not 0 <= instance < len(asset.instances):
            raise ArgumentError(
                f"skin: no mesh instance {instance} (the asset has "
                f"{len(asset.instances)})")
        node = asset.instances[instance]
        prims = asset.meshes[asset.nodes[node].mesh].primitives
        if primitive is None:
            chosen = list(range(len(prims)))
        elif 0 <= primitive < len(prims):
            chosen = [primitive]
        else:
            raise ArgumentError(f"skin: no primitive {primitive} in the mesh "
                                f"of node {node}")
        total = sum(prims[p].vertex_count for p in chosen)
        has_n = all(prims[p].normals is not None for p in chosen)
        has_t = all(prims[p].tangents is not None for p in chosen)
        pos = _util.float_buffer(positions, (total, 3), "positions")
        nor = _util.float_buffer(normals, (total, 3), "normals") \
            if has_n else None
        tan = _util.float_buffer(tangents, (total, 4), "tangents") \
            if has_t else None
        options = self._options(method, space, raw_weights)
        posed = ffi.new("vs_posed_primitive *")
        first = 0
        for p in chosen:
            _util.call(lib.vs_pose_mesh_primitive, self._ptr, node, p,
                       options, posed)
            try:
                n = int(posed.vertex_count)
                ffi.memmove(_util.float_ptr(pos[first:first + n]),
                            posed.positions, 12 * n)
                if nor is not None and posed.normals != ffi.NULL:
                    ffi.memmove(_util.float_ptr(nor[first:first + n]),
                                posed.normals, 12 * n)
                if tan is not None and posed.tangents != ffi.NULL:
                    ffi.memmove(_util.float_ptr(tan[first:first + n]),
                                posed.tangents, 16 * n)
            finally:
                lib.vs_posed_primitive_free(posed)
            first += n
        return Skinned(pos, nor, tan)

    def bounds(self, *, method: str = "linear", space: str = "world",
               raw_weights: Optional[bool] = None
               ) -> Optional[tuple[np.ndarray, np.ndarray]]:
        """The box (min, max) of every posed mesh instance, or None when
        there is no vertex (vs_pose_bounds)."""
        lo = np.zeros(3, dtype=np.float32)
        hi = np.zeros(3, dtype=np.float32)
        anyv = ffi.new("_Bool *")
        _util.call(lib.vs_pose_bounds, self._ptr,
                   self._options(method, space, raw_weights),
                   _util.float_ptr(lo), _util.float_ptr(hi), anyv)
        return (lo, hi) if anyv[0] else None

    # -- tools ---------------------------------------------------------------
    def write(self, path: PathLike, *, method: str = "linear",
              space: str = "world", raw_weights: Optional[bool] = None,
              joints: bool = False, clip: int = -1, time: float = 0.0) -> None:
        """Writes every posed mesh instance as OBJ, PLY or JSON (from the
        extension; vs_write_pose: the bytes of `vskin pose -o`). ``clip``
        and ``time`` only label the file. Needs libvskin_tools."""
        from .tools import require_tools
        tools = require_tools("Pose.write")
        options = ffi.new("vs_posed_scene_options *")
        options.mesh = self._options(method, space, raw_weights)[0]
        options.clip = clip
        options.time = time
        options.joints = joints
        _util.call(tools.vs_write_pose, self._ptr,
                   _util.path_bytes(path, "Pose.write"), options)

    def bake(self, *, method: str = "linear", space: str = "world",
             raw_weights: Optional[bool] = None) -> Asset:
        """This pose as a new static asset (vs_bake_pose): one mesh per
        mesh instance, no skin, no animation. Needs libvskin_tools."""
        from .tools import require_tools
        tools = require_tools("Pose.bake")
        out = ffi.new("vs_asset **")
        _util.call(tools.vs_bake_pose, self._ptr,
                   self._options(method, space, raw_weights), out)
        return Asset(ffi.gc(out[0], lib.vs_asset_free))

    def __repr__(self) -> str:
        return f"<vskin.Pose of {self.asset.source_name!r}>"
