# SPDX-License-Identifier: MIT
"""Loading: vskin.load and the immutable Asset with its nodes, meshes,
skins and clips as Python objects over numpy views of the C data."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np

from . import _util
from ._errors import ArgumentError, NotFoundError
from ._ffi import ffi, lib

if TYPE_CHECKING:
    from .batch import Batch, Context
    from .pose import Pose

PathLike = Union[str, "os.PathLike[str]"]
ClipRef = Union[int, str, "Clip"]

_FORMATS = {lib.VS_FORMAT_UNKNOWN: "unknown", lib.VS_FORMAT_GLTF2: "gltf2",
            lib.VS_FORMAT_GLTF1: "gltf1", lib.VS_FORMAT_COLLADA: "collada"}
_UP = {lib.VS_UP_Y: "y", lib.VS_UP_Z: "z", lib.VS_UP_X: "x"}
_MODES = ["points", "lines", "line_loop", "line_strip", "triangles",
          "triangle_strip", "triangle_fan"]


@dataclass(frozen=True)
class Node:
    """A node of the scene graph (vs_node). ``matrix`` is the rest local
    transform, indexed [row, col]."""
    index: int
    name: str
    id: Optional[str]
    sid: Optional[str]
    parent: int
    children: tuple[int, ...]
    mesh: int
    skin: int
    has_matrix: bool
    matrix: np.ndarray = field(repr=False)
    rest_translation: tuple[float, float, float] = field(repr=False)
    rest_rotation: tuple[float, float, float, float] = field(repr=False)
    rest_scale: tuple[float, float, float] = field(repr=False)


@dataclass(frozen=True)
class Primitive:
    """One primitive's vertex data (vs_primitive), as read-only views of the
    asset's memory: positions (V, 3), normals (V, 3) or None, tangents
    (V, 4) or None, texcoords (V, 2) or None, joints (V, K) uint16 and
    weights (V, K) float32 (None when unskinned), indices (I,) uint32 or
    None."""
    mode: str
    vertex_count: int
    positions: np.ndarray = field(repr=False)
    normals: Optional[np.ndarray] = field(repr=False)
    tangents: Optional[np.ndarray] = field(repr=False)
    texcoords: Optional[np.ndarray] = field(repr=False)
    joints: Optional[np.ndarray] = field(repr=False)
    weights: Optional[np.ndarray] = field(repr=False)
    indices: Optional[np.ndarray] = field(repr=False)
    material: int
    target_count: int


@dataclass(frozen=True)
class Mesh:
    """A mesh (vs_mesh): its primitives."""
    index: int
    name: str
    primitives: tuple[Primitive, ...]


@dataclass(frozen=True)
class Skin:
    """A skin (vs_skin). ``joints`` are node indices, ``parents`` each
    joint's parent joint within the skin (-1: none), and
    ``inverse_bind_matrices`` a read-only (J, 4, 4) view indexed
    [joint, row, col] (identities when the file has none)."""
    index: int
    name: str
    joints: np.ndarray = field(repr=False)
    joint_names: tuple[str, ...] = field(repr=False)
    parents: np.ndarray = field(repr=False)
    inverse_bind_matrices: np.ndarray = field(repr=False)
    bind_shape_matrix: np.ndarray = field(repr=False)
    skeleton: int

    @property
    def joint_count(self) -> int:
        return int(self.joints.shape[0])


@dataclass(frozen=True)
class Clip:
    """An animation clip (vs_clip): times in seconds."""
    index: int
    name: str
    start: float
    end: float

    @property
    def duration(self) -> float:
        return self.end - self.start


def _read_warnings(ptr: Any) -> list[dict[str, str]]:
    """The load's warnings (vs_asset.warnings): what it repaired, dropped or
    ignored instead of refusing the file, as {"object", "message"} dicts."""
    return [{"object": _util.text(ptr.warnings[i].object) or "",
             "message": _util.text(ptr.warnings[i].message) or ""}
            for i in range(ptr.warning_count)]


class Asset:
    """A loaded asset (vs_asset): immutable, shareable between threads.

    Its arrays are views of the C memory and keep the asset alive.
    ``raw_weights`` is the default of the skinning calls made from it
    (stored weights as they are instead of divided by their sum)."""

    def __init__(self, ptr: Any, raw_weights: bool = False) -> None:
        self._ptr = ptr
        self.raw_weights = bool(raw_weights)
        a = ptr
        self.format: str = _FORMATS.get(a.format, "unknown")
        self.source_name: str = _util.text(a.source_name) or ""
        self.generator: str = _util.text(a.generator) or ""
        self.up_axis: str = _UP.get(a.up_axis, "y")
        self.unit_meters: float = float(a.unit_meters)
        self.nodes: tuple[Node, ...] = tuple(
            self._node(i) for i in range(a.node_count))
        self.meshes: tuple[Mesh, ...] = tuple(
            self._mesh(i) for i in range(a.mesh_count))
        self.skins: tuple[Skin, ...] = tuple(
            self._skin(i) for i in range(a.skin_count))
        self.clips: tuple[Clip, ...] = tuple(
            Clip(i, _util.text(a.clips[i].name) or "", float(a.clips[i].start),
                 float(a.clips[i].end)) for i in range(a.clip_count))
        #: Mesh instances: node indices, in the output order of `vskin pose`.
        self.instances: tuple[int, ...] = tuple(
            int(a.instances[i]) for i in range(a.instance_count))
        self.warnings: list[dict[str, str]] = _read_warnings(ptr)

    # -- building the Python view -------------------------------------------
    def _node(self, i: int) -> Node:
        n = self._ptr.nodes[i]
        flat = np.frombuffer(ffi.buffer(n.matrix), dtype=np.float32).copy()
        t = n.rest_trs
        return Node(i, _util.text(n.name) or "", _util.text(n.id),
                    _util.text(n.sid), int(n.parent),
                    tuple(int(n.children[c]) for c in range(n.child_count)),
                    int(n.mesh), int(n.skin), bool(n.has_matrix),
                    _util.matrices(flat)[0],
                    tuple(float(x) for x in t.translation),  # type: ignore
                    tuple(float(x) for x in t.rotation),  # type: ignore
                    tuple(float(x) for x in t.scale))  # type: ignore

    def _mesh(self, i: int) -> Mesh:
        m = self._ptr.meshes[i]
        return Mesh(i, _util.text(m.name) or "", tuple(
            self._primitive(m.primitives[p]) for p in range(m.primitive_count)))

    def _primitive(self, p: Any) -> Primitive:
        v, k = int(p.vertex_count), int(p.influence_count)
        f32 = np.float32

        def floats(ptr: Any, width: int) -> Optional[np.ndarray]:
            return _util.view(self._ptr, ptr, v * width, "float", f32,
                              (v, width))

        joints = weights = None
        if k:
            joints = _util.view(self._ptr, p.joints, v * k, "uint16_t",
                                np.uint16, (v, k))
            weights = floats(p.weights, k)
        indices = None
        if p.index_count:
            indices = _util.view(self._ptr, p.indices, int(p.index_count),
                                 "uint32_t", np.uint32, (int(p.index_count),))
        mode = int(p.mode)
        positions = floats(p.positions, 3)
        assert positions is not None
        return Primitive(_MODES[mode] if 0 <= mode < len(_MODES) else str(mode),
                         v, positions, floats(p.normals, 3),
                         floats(p.tangents, 4), floats(p.texcoords, 2),
                         joints, weights, indices, int(p.material),
                         int(p.target_count))

    def _skin(self, i: int) -> Skin:
        s = self._ptr.skins[i]
        count = int(s.joint_count)
        joints = _util.view(self._ptr, s.joints, count, "uint32_t", np.uint32,
                            (count,))
        assert joints is not None
        ibm = _util.view(self._ptr, s.inverse_bind_matrices, count * 16,
                         "float", np.float32, (count * 16,))
        if ibm is None:
            ibm = np.tile(np.eye(4, dtype=np.float32), (count, 1, 1))
            ibm.flags.writeable = False
        else:
            ibm = _util.matrices(ibm)
        slot = {int(node): j for j, node in enumerate(joints)}
        parents = np.full(count, -1, dtype=np.int32)
        for j, node in enumerate(joints):
            up = self._ptr.nodes[int(node)].parent
            # A joint's parent in the skin is its nearest ancestor that is a
            # joint of the skin; the node depth is bounded by the load.
            while up >= 0 and int(up) not in slot:
                up = self._ptr.nodes[up].parent
            parents[j] = slot[int(up)] if up >= 0 else -1
        parents.flags.writeable = False
        bsm = np.frombuffer(ffi.buffer(s.bind_shape_matrix),
                            dtype=np.float32).copy()
        names = tuple(_util.text(self._ptr.nodes[int(n)].name) or ""
                      for n in joints)
        return Skin(i, _util.text(s.name) or "", joints, names, parents, ibm,
                    _util.matrices(bsm)[0], int(s.skeleton))

    # -- queries --------------------------------------------------------------
    def clip_index(self, clip: ClipRef) -> int:
        """The index of a clip given as index, name or Clip; NotFoundError
        when the asset has no such clip."""
        if isinstance(clip, Clip):
            clip = clip.index
        if isinstance(clip, (int, np.integer)) and not isinstance(clip, bool):
            if 0 <= int(clip) < len(self.clips):
                return int(clip)
            raise NotFoundError(f"{self.source_name}: no clip {int(clip)} "
                                f"(the asset has {len(self.clips)})", 8)
        if isinstance(clip, str):
            found = int(lib.vs_asset_find_clip(self._ptr, clip.encode()))
            if found >= 0:
                return found
            raise NotFoundError(f"{self.source_name}: no clip {clip!r}", 8)
        raise ArgumentError(f"clip: an index, a name or a Clip, not {clip!r}")

    def rest_world(self, node: int) -> np.ndarray:
        """The node's world matrix in the rest pose, (4, 4) [row, col]."""
        if not 0 <= node < len(self.nodes):
            raise ArgumentError(f"node {node}: out of range")
        out = np.empty(16, dtype=np.float32)
        lib.vs_asset_rest_world(self._ptr, node, _util.float_ptr(out))
        return _util.matrices(out)[0]

    # -- what is made from the asset -----------------------------------------
    def pose(self) -> "Pose":
        """A new Pose of this asset, in its rest pose."""
        from .pose import Pose
        return Pose(self)

    def skin_batch(self, clip: ClipRef = 0, times: Any = None, *,
                   loop: bool = False, normals: bool = False,
                   raw_weights: Optional[bool] = None,
                   context: Optional["Context"] = None,
                   threads: Optional[int] = None,
                   out: Optional[np.ndarray] = None) -> "Batch":
        """Skins the asset at many times of a clip in one call: see
        vskin.skin_batch."""
        from .batch import skin_batch
        return skin_batch(self, clip=clip, times=times, loop=loop,
                          normals=normals, raw_weights=raw_weights,
                          context=context, threads=threads, out=out)

    def bake(self, clip: ClipRef = 0, *, fps: float = 30.0,
             interpolation: str = "linear", method: str = "linear",
             space: str = "world") -> "Asset":
        """The clip baked as morph targets (vs_bake_clip_morph): a new
        asset with the meshes posed at the first frame and one target per
        later frame. Needs libvskin_tools."""
        from .tools import bake_clip
        return bake_clip(self, clip, fps=fps, interpolation=interpolation,
                         method=method, space=space)

    def bake_vat(self, base: PathLike, clip: ClipRef = 0, *,
                 fps: float = 30.0, method: str = "linear",
                 space: str = "world") -> None:
        """Writes the clip as a vertex-animation texture: base.bin,
        base.normals.bin, base.json and base.glb (vs_bake_vat_write)."""
        from .tools import bake_vat
        bake_vat(self, base, clip, fps=fps, method=method, space=space)

    def save(self, path: PathLike, *, embed: bool = False,
             keep_axes: bool = False) -> dict[str, Any]:
        """Writes the asset as glTF 2.0 (.gltf or .glb; vs_write_gltf) and
        returns what the writer had to change (vs_gltf_write_report)."""
        from .tools import write_gltf
        return write_gltf(self, path, embed=embed, keep_axes=keep_axes)

    def validate(self, **options: Any) -> list[dict[str, str]]:
        """The model-level checks on this asset (vs_validate_asset)."""
        from .tools import validate
        return validate(self, **options)

    def __repr__(self) -> str:
        return (f"<vskin.Asset {self.source_name!r} {self.format}: "
                f"{len(self.nodes)} nodes, {len(self.meshes)} meshes, "
                f"{len(self.skins)} skins, {len(self.clips)} clips>")


def load(source: Union[PathLike, bytes, bytearray, memoryview],
         raw_weights: bool = False, *, name: Optional[str] = None,
         base_dir: Optional[PathLike] = None,
         allow_external_paths: bool = False, strict: bool = False) -> Asset:
    """Loads glTF 2.0 (.gltf / .glb), glTF 1.0 or COLLADA from a path or
    from bytes (the format is detected from the content).

    For bytes, ``name`` is used in messages and ``base_dir`` resolves
    relative buffer URIs (None: such URIs are refused). ``raw_weights`` is
    the default for the skinning calls made from the asset. A flaw that
    leaves the pose known is repaired and listed in ``Asset.warnings``;
    ``strict=True`` refuses such a file instead (InvalidError). Raises a
    vskin.Error subclass (FileError, ParseError, InvalidError, ...) with the
    C library's message."""
    options = ffi.new("vs_load_options *")
    options.allow_external_paths = bool(allow_external_paths)
    options.strict = bool(strict)
    keep = []
    if base_dir is not None:
        keep.append(ffi.new("char[]", _util.path_bytes(base_dir,
                                                       "base_dir")))
        options.base_dir = keep[-1]
    out = ffi.new("vs_asset **")
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = ffi.from_buffer(source)
        label = (name if name is not None else "memory").encode()
        if b"\0" in label:
            raise ArgumentError("load: the name holds a NUL byte")
        _util.call(lib.vs_asset_load_memory, data, len(data), label, options,
                   out)
    else:
        path = _util.path_bytes(source, "load")
        _util.call(lib.vs_asset_load_file, path, options, out)
    return Asset(ffi.gc(out[0], lib.vs_asset_free), raw_weights)


def default_asset_bytes() -> bytes:
    """The embedded default asset (SimpleSkin, glTF 2.0) as bytes."""
    size = ffi.new("size_t *")
    data = lib.vs_default_asset_data(size)
    return bytes(ffi.buffer(data, size[0]))
