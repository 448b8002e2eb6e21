/* SPDX-License-Identifier: MIT */
/**
 * @file vskin_tools.h
 * @brief vskin tools — what is done with an asset besides posing it:
 * writing glTF 2.0 (convert), posed meshes (OBJ, PLY, JSON) and pictures
 * (PNG, GIF), baking, validation, reweighting and synthetic test assets
 * (libvskin_tools).
 *
 * Built on the runtime (vskin.h), in its own library so that a program that
 * only loads, poses and skins links neither libpng nor giflib. Link
 * vskin::tools (CMake) or `pkg-config vskin_tools`; it brings libvskin.
 * The functions here share the runtime's conventions: every fallible call
 * returns vs_result and fills an optional vs_error, objects the library
 * makes have one _free, and nothing keeps global state, so different
 * threads may call them on different objects at once.
 *
 * Memory (see @ref memory "Memory and files"): a call that works from an
 * asset, a pose or a scene allocates through the asset's allocator
 * (vs_load_options.allocator), and the assets it makes (baked, reweighted)
 * are made with it; the calls with no asset take an allocator as an
 * argument or a field (NULL or zero: malloc and free). The JSON trees the
 * writers and the validator build are cJSON's, and the PNG and GIF codecs'
 * state is libpng's and giflib's: those come from the libraries' own
 * allocators, which vskin does not set.
 *
 * Every function here that writes a file writes it as vs_write_bytes
 * describes: into a temporary file beside the target, renamed over it only
 * once complete, so a failed call never leaves a partial file nor changes
 * an existing one.
 */
#ifndef VSKIN_VSKIN_TOOLS_H
#define VSKIN_VSKIN_TOOLS_H

#include <stddef.h>
#include <stdint.h>

#include "vskin/vskin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility; what this header declares
 * is its exported interface. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* ------------------------------------------- validation and reweighting
 * (`vskin validate`, `vskin reweight`; docs/validate.md) */

/** How serious a validation issue is. */
typedef enum vs_severity {
    VS_SEVERITY_ERROR = 0, /**< breaks the format's rules or skinning */
    VS_SEVERITY_WARNING, /**< legal but likely wrong, or ignored by runtimes */
    VS_SEVERITY_INFO,    /**< worth knowing (such as bind pose != rest pose) */
    VS_SEVERITY_HINT     /**< a suggestion; nothing is wrong */
} vs_severity;

/** One problem. code is a stable upper-case identifier: the Khronos
 * glTF-Validator's code where one matches ("ACCESSOR_JOINTS_INDEX_OOB"),
 * else a vskin one ("SKIN_TOO_MANY_INFLUENCES"). pointer is a JSON pointer
 * into the glTF document ("/meshes/0/primitives/0/attributes/WEIGHTS_0"),
 * or the same shape over the loaded model for glTF 1.0 / COLLADA, or "" for
 * the file as a whole. */
typedef struct vs_validation_issue {
    const char *code;     /**< stable identifier (see above) */
    vs_severity severity; /**< how serious it is */
    const char *pointer;  /**< where it is (see above) */
    const char *message;  /**< what is wrong, in English */
} vs_validation_issue;

/** The issues found in one file or asset (free it with
 * vs_validation_report_free). */
typedef struct vs_validation_report {
    const char *source_name;  /**< the file or asset validated */
    vs_source_format format;  /**< VS_FORMAT_UNKNOWN when not recognised */
    bool loaded;              /**< vs_asset_load_* accepted the file */
    uint32_t issue_count;     /**< number of issues */
    const vs_validation_issue *issues; /**< in the order found */
    uint32_t counts[4];                /**< issues per vs_severity */
    void *internal_;                   /**< owned memory; do not touch */
} vs_validation_report;

/** Options of vs_validate_file and vs_validate_asset. */
typedef struct vs_validate_options {
    /** More influences with a non-zero weight than this on one vertex is a
     * warning (SKIN_TOO_MANY_INFLUENCES); 0 = 4. */
    uint32_t max_influences;
    /** |sum of weights - 1| above this is ACCESSOR_WEIGHTS_NON_NORMALIZED;
     * 0 = 1e-3 (tolerates float and 8/16-bit quantization rounding). */
    float weight_tolerance;
    /** How vs_validate_file reads and loads the file: the raw pass reads
     * the file and its buffers through load.file_reader, and the report and
     * everything the validation allocates come from load.allocator. */
    vs_load_options load;
    /** At most this many issues per report (the rest are counted in a final
     * VALIDATION_TRUNCATED info issue); 0 = 10,000. */
    uint32_t max_issues;
} vs_validate_options;

/** Validates a file: for glTF 2.0 a pass over the raw JSON and buffers that
 * collects every problem (so files the loader rejects still get all of
 * them), then the loader (its error, if any, is one more issue, code
 * "LOAD_FAILED"), then model-level skin checks on the loaded asset. Returns
 * VS_OK whenever a report was made (look at its counts); an error only when
 * the file cannot be read or memory runs out (VS_ERROR_OUT_OF_MEMORY, when
 * options->load.allocator refuses, after freeing everything), or
 * VS_ERROR_ARGUMENT for a half-set allocator or file reader. */
vs_result vs_validate_file(const char *path, const vs_validate_options *options,
                           vs_validation_report **out_report, vs_error *error);
/** The model-level checks alone, on any loaded asset; the report comes
 * from the asset's allocator. */
vs_result vs_validate_asset(const vs_asset *asset,
                            const vs_validate_options *options,
                            vs_validation_report **out_report,
                            vs_error *error);
/** Frees a report; NULL is ignored. */
void vs_validation_report_free(vs_validation_report *report);
/** "error", "warning", "info", "hint". */
const char *vs_severity_string(vs_severity severity);

/** Options of vs_asset_reweight. */
typedef struct vs_reweight_options {
    uint32_t max_influences; /**< keep this many largest weights, >= 1 */
    /** Divide the kept weights by their sum. Without it the kept weights are
     * stored as they are (their sum is then below the original's). */
    bool normalize;
} vs_reweight_options;

/** What vs_asset_reweight changed. */
typedef struct vs_reweight_stats {
    uint32_t vertices_changed; /**< vertices that lost at least one influence */
    uint32_t influences_dropped; /**< non-zero weights removed */
    float max_dropped_weight;  /**< largest single weight removed */
} vs_reweight_stats;

/** A copy of `source` whose skinned primitives keep each vertex's
 * max_influences largest weights (ties: the lower set position wins),
 * padded with zero weights to a multiple of 4 influences. A vertex that is
 * unskinned under the default weights rule (its weights sum to 0, less, or
 * not a finite number) gets only zero weights, so it stays unskinned. The
 * copy owns its meshes, primitives, joints and weights (made with source's
 * allocator) and BORROWS everything else from source: free it
 * (vs_asset_free) before source. stats may be NULL. */
vs_result vs_asset_reweight(const vs_asset *source,
                            const vs_reweight_options *options,
                            vs_asset **out_asset, vs_reweight_stats *stats,
                            vs_error *error);

/** The largest distance between the skinned vertex positions of two assets
 * with the same nodes, meshes and clips (a source and its reweighted copy):
 * over the rest pose and every clip sampled every 1/rate_hz seconds from
 * start to end (end included); rate_hz 0 = 30. Default (normalized) weights,
 * world space. `*out_clip` is the clip where it occurs (-1: rest pose) and
 * `*out_time` the time. */
vs_result vs_max_position_error(const vs_asset *a, const vs_asset *b,
                                float rate_hz, float *out_error,
                                int32_t *out_clip, float *out_time,
                                vs_error *error);
/* ============================================================ writing files
 * (`vskin convert`, `vskin pose -o`, `vskin render -o`, `vskin bake`;
 * docs/convert.md, docs/formats.md, docs/bake.md) */

/** Writes `size` bytes to `path` so that the file there is either the one
 * it was or the whole new one: the bytes go to a new temporary file in the
 * same folder (named `path` + ".<process id>-<n>.tmp"), which is renamed
 * over `path` only once written and closed without error. On any failure
 * the temporary file is removed and a file already at `path` is left as it
 * was. A new file gets the permissions fopen would give it (0666 less the
 * umask); a file that is replaced keeps its permission bits; a symbolic
 * link at `path` is replaced by the file, not followed. Every writer in
 * this header writes its files this way.
 *
 * The temporary file's name comes from `allocator` (NULL: malloc).
 *
 * Errors: VS_ERROR_ARGUMENT (path NULL or "", data NULL with size > 0, an
 * allocator with only one of alloc and free), VS_ERROR_IO (the folder
 * cannot be written, the disk is full, `path` is a folder; the message
 * names the file and the system's reason), VS_ERROR_OUT_OF_MEMORY.
 * Thread-safe: calls on different paths are
 * independent, and calls racing on one path each leave a whole file (the
 * last rename wins). Cost: one write of the bytes, no copy; no fsync (the
 * rename protects against failed writes, not against power loss). */
vs_result vs_write_bytes(const void *data, size_t size, const char *path,
                         const vs_allocator *allocator, vs_error *error);

/* ------------------------------------------------- glTF 2.0 (convert) */

/** Options of vs_write_gltf; zero-initialised (or NULL): a .gltf gets its
 * buffer in a .bin beside it, and COLLADA's up axis and unit become glTF's
 * Y-up metres. */
typedef struct vs_gltf_write_options {
    /** .gltf only: the buffer as a base64 data: URI inside the file
     * instead of a .bin beside it. */
    bool embed;
    /** Keep the source's up axis and unit (no correction into Y-up
     * metres). */
    bool keep_axes;
} vs_gltf_write_options;

/** What vs_write_gltf had to change so that the file is valid glTF 2.0
 * (all zero when nothing; `vskin convert` prints them as warnings). */
typedef struct vs_gltf_write_report {
    uint32_t renormalized_normals;  /**< NORMALs not unit length: normalized */
    uint32_t renormalized_tangents; /**< TANGENTs not unit or w not +-1 */
    uint32_t dropped_normals;  /**< primitives whose NORMAL had a zero vector
                                    and was left out */
    uint32_t dropped_tangents; /**< the same for TANGENT */
    uint32_t normalized_rotations; /**< LINEAR/STEP rotation keys and rest
                                        rotations that were not unit */
    uint32_t unnormalized_weights; /**< vertices whose weights were divided
                                        by their sum (it was not 1) */
    bool axes_corrected; /**< the up axis / unit correction was applied */
    /** Images left out with their textures (their materials keep their
     * base colour factor): the bytes could not be read (a missing file, a
     * URI outside the asset's folder; vs_asset_image_bytes), or are neither
     * a whole PNG nor a whole JPEG, the only images glTF 2.0 holds. */
    uint32_t dropped_images;
    /** Vertices whose COLOR_0 had a component outside [0, 1], clamped
     * (glTF 2.0 float colours lie in it). */
    uint32_t clamped_colors;
} vs_gltf_write_report;

/** Writes `asset`, whatever format it was loaded from, as glTF 2.0: one GLB
 * when `path` ends in ".glb" (any case), else glTF JSON (`path` must end in
 * ".gltf") with the buffer in the file vs_gltf_bin_path names, or embedded.
 * This is `vskin convert`. Joint matrices follow glTF 2.0 (G(joint) * IBM,
 * §3.7.3.3): a glTF 1.0 / COLLADA bind shape matrix is folded into the
 * inverse bind matrices. Materials keep their base colour texture: each
 * image used is read (vs_asset_image_bytes, with the load's folder rules)
 * and embedded in the buffer with its bytes unchanged; one that cannot be
 * read, or is not a whole PNG or JPEG, is left out with its texture and
 * counted in report->dropped_images. Existing files are replaced (whether
 * to is the caller's policy), each as vs_write_bytes describes: with a
 * .bin, both are written first and the .bin renamed into place before the
 * .gltf. `options` and `report` may be NULL.
 *
 * Errors: VS_ERROR_ARGUMENT (asset or path NULL, an extension other than
 * .gltf / .glb, embed with .glb), VS_ERROR_LIMIT (a GLB over 4 GiB),
 * VS_ERROR_OUT_OF_MEMORY, VS_ERROR_IO. The asset is only read, so threads
 * may write the same asset at once. Cost: the whole document (JSON text and
 * one binary buffer, about the size of the file) is built in memory first. */
vs_result vs_write_gltf(const vs_asset *asset, const char *path,
                        const vs_gltf_write_options *options,
                        vs_gltf_write_report *report, vs_error *error);

/** The .bin vs_write_gltf writes beside a .gltf: `gltf_path` with its
 * extension replaced by ".bin" ("a/b.gltf" -> "a/b.bin"), so that a caller
 * can check every file it is about to replace. From `allocator` (NULL:
 * malloc; free it with that allocator's free, or free()); NULL when
 * gltf_path is NULL, the allocator is half set or memory runs out. */
char *vs_gltf_bin_path(const char *gltf_path, const vs_allocator *allocator);

/* ------------------------------------- posed meshes: OBJ, PLY and JSON */

/** One posed mesh instance: a node's mesh, its topology and its posed
 * vertices. */
typedef struct vs_posed_object {
    const char *name;                /**< object name in the file; never NULL */
    uint32_t node;                   /**< node index in the asset */
    uint32_t primitive_count;        /**< primitives of the node's mesh */
    const vs_primitive *primitives;  /**< topology (mode, indices), one per
                                          primitive */
    const vs_posed_primitive *posed; /**< posed vertices, one per primitive */
} vs_posed_object;

/** One joint of a posed skin. */
typedef struct vs_posed_joint {
    uint32_t node;           /**< the joint's node index */
    const char *name;        /**< its name in the file; never NULL */
    float world_position[3]; /**< the translation of its world matrix */
} vs_posed_joint;

/** One skin's joints in the pose. */
typedef struct vs_posed_skin {
    uint32_t skin;                /**< index in the asset's skins */
    const char *name;             /**< never NULL ("" when unnamed) */
    uint32_t joint_count;         /**< joints and matrices */
    const vs_posed_joint *joints; /**< in the skin's joint order */
    const float *joint_matrices;  /**< 16 per joint, column-major */
} vs_posed_skin;

/** Everything one OBJ, PLY or pose JSON file describes: made by
 * vs_posed_scene_create, or filled by the caller (then NULL arrays and zero
 * counts for what it has not). */
typedef struct vs_posed_scene {
    const char *source;    /**< the asset's source name */
    int32_t clip;          /**< the clip sampled; -1: the rest pose */
    const char *clip_name; /**< "" when unnamed or no clip */
    float time;            /**< the time sampled */
    uint32_t object_count; /**< mesh instances */
    /** The mesh instances; JSON: NULL leaves out "objects" (a joints-only
     * file). */
    const vs_posed_object *objects;
    uint32_t skin_count; /**< skins */
    /** The skins' joints; NULL: no "skins" in JSON. OBJ and PLY hold no
     * joints and ignore them. */
    const vs_posed_skin *skins;
    /** What vs_write_posed_scene allocates with (the temporary file's
     * name): the asset's allocator, set by vs_posed_scene_create; zero:
     * malloc and free. */
    vs_allocator allocator;
    void *internal_; /**< vs_posed_scene_create's memory; do not touch */
} vs_posed_scene;

/** Options of vs_posed_scene_create and vs_write_pose; zero-initialised
 * (or NULL): world space, linear skinning, normalized weights, no joints,
 * and the files say "clip 0, t = 0" (the rest pose when the asset has no
 * clip), which is what a pose sampled with the CLI's defaults is. */
typedef struct vs_posed_scene_options {
    vs_pose_mesh_options mesh; /**< how every mesh instance is posed */
    /** The clip the pose was sampled from, as the files name it: -1, or an
     * index the asset has no clip for, is the rest pose. Only a label: the
     * pose is taken as it is. */
    int32_t clip;
    float time; /**< the time it was sampled at (a label too) */
    /** Add every skin's joints: world positions and the joint matrices the
     * meshes were skinned with (relative to the skin's skeleton root when
     * mesh.space is VS_SPACE_SKELETON). Only JSON holds them. */
    bool joints;
    /** The joints alone: as `joints`, and no mesh instance is posed (the
     * scene's objects are NULL, so its JSON has no "objects"), for a file
     * of the joints beside an OBJ or PLY. OBJ and PLY refuse it as they
     * refuse `joints`. */
    bool joints_only;
} vs_posed_scene_options;

/** File formats for a posed scene. */
typedef enum vs_posed_format {
    VS_POSED_FORMAT_AUTO = 0, /**< from the path's extension */
    /** Wavefront OBJ: an `o` per object, `v`, `vn` (with normals), faces;
     * points and lines as `p` and `l`. */
    VS_POSED_FORMAT_OBJ,
    /** ASCII PLY: one vertex element (with normals when every primitive has
     * them) and the triangles; points and lines are left out. */
    VS_POSED_FORMAT_PLY,
    /** JSON: source, clip, time, then "objects" (positions and normals per
     * primitive) and "skins" (joints and joint matrices). */
    VS_POSED_FORMAT_JSON
} vs_posed_format;

/** The format a path's extension names: ".obj", ".ply", ".json" (any case)
 * give OBJ, PLY, JSON; anything else (or NULL) VS_POSED_FORMAT_AUTO, which
 * the writers refuse. */
vs_posed_format vs_posed_format_of(const char *path);

/** The name files give a node: its name, else its id (glTF 1.0, COLLADA),
 * else "node<index>" written into buf (`size` bytes; 24 always suffice).
 * Returns the asset's string or buf (the asset must outlive it); "" when
 * asset is NULL, node is out of range, or buf is needed but NULL. */
const char *vs_node_label(const vs_asset *asset, uint32_t node, char *buf,
                          size_t size);

/** Copies `text` (NULL: "") into `out` (`size` bytes, always NUL-terminated
 * when size > 0) with every byte that could change how a line-based text
 * file or a terminal reads it written as the four characters \\xHH: ASCII
 * and C1 control characters, DEL, the backslash itself, and bytes that are
 * not valid UTF-8. Valid UTF-8 otherwise passes unchanged. The writers of
 * OBJ and PLY apply it to every name they write, and the CLI to every name
 * it prints. When out is too small the result stops at the last whole
 * character or escape that fits.
 *
 * Returns the length of the whole escaped text (without the NUL), as
 * snprintf does: the result was truncated when it is >= size. Thread-safe;
 * no allocation. */
size_t vs_escape_text(char *out, size_t size, const char *text);

/** Poses every mesh instance of the pose's asset (instance order, each
 * mesh's primitives in order) with vs_pose_mesh_primitive, plus the joints
 * when asked, into a new scene for vs_write_posed_scene or the caller's own
 * use. Call vs_pose_update_world first; the pose is not changed. Object
 * names are vs_node_label's. The scene owns the posed vertices and borrows
 * the asset's names and topology: free it (vs_posed_scene_free) before the
 * asset.
 *
 * Errors: VS_ERROR_ARGUMENT (pose or out_scene NULL), those of
 * vs_pose_mesh_primitive and vs_pose_joint_matrices, VS_ERROR_OUT_OF_MEMORY.
 * Thread-safe on a pose no other thread changes. Cost: every vertex skinned
 * once; the memory of the posed vertices of all instances at once (12
 * bytes each, and as much again for normals, 16 for tangents), which is
 * checked against the load's vs_limits.max_total_memory before any posing
 * (VS_ERROR_LIMIT); vs_write_pose writes a file one instance at a time. */
vs_result vs_posed_scene_create(const vs_pose *pose,
                                const vs_posed_scene_options *options,
                                vs_posed_scene **out_scene, vs_error *error);
/** Frees a scene made by vs_posed_scene_create; NULL, and a scene the
 * caller filled itself (internal_ NULL), are ignored. */
void vs_posed_scene_free(vs_posed_scene *scene);

/** Writes a posed scene as OBJ, PLY or JSON (`format`, or from the path's
 * extension with VS_POSED_FORMAT_AUTO), replacing `path` as vs_write_bytes
 * describes. Floats are written with 9 significant digits, so every float
 * reads back the same. The bytes depend only on the scene (OBJ and PLY say
 * which vskin wrote them in a comment).
 *
 * Errors: VS_ERROR_ARGUMENT (scene or path NULL, objects NULL with a
 * non-zero object_count, an extension that names no format, a half-set
 * scene->allocator),
 * VS_ERROR_INVALID (an index at or above its primitive's vertex count),
 * VS_ERROR_OUT_OF_MEMORY, VS_ERROR_IO. Thread-safe: the scene is only read.
 * Cost: a pass over the vertices; JSON builds the tree and text of one
 * object at a time. */
vs_result vs_write_posed_scene(const vs_posed_scene *scene, const char *path,
                               vs_posed_format format, vs_error *error);

/** One call for a posed vs_pose: the bytes vs_posed_scene_create then
 * vs_write_posed_scene would write in the format of the path's extension
 * (.obj, .ply, .json), and the same bytes as `vskin pose -o` for the same
 * pose and options; but the mesh instances are posed one at a time, each
 * written and freed before the next is posed, so memory holds the posed
 * vertices of one instance (and, for JSON, that instance's cJSON tree),
 * never of all: a small file that instances a big mesh many times is
 * written in the memory of one instance. PLY's header counts come from
 * the topology, before any posing. A failure part way leaves `path` as it
 * was and no temporary file.
 *
 * Errors: those of both calls (an instance whose posed vertices alone
 * would pass the load's vs_limits.max_total_memory is VS_ERROR_LIMIT), and
 * VS_ERROR_ARGUMENT for options->joints or joints_only with OBJ or PLY
 * (which cannot hold them). Cost: every vertex skinned once. */
vs_result vs_write_pose(const vs_pose *pose, const char *path,
                        const vs_posed_scene_options *options, vs_error *error);

/* --------------------------------------------------- pictures: PNG, GIF */

/** Writes `width` x `height` RGBA8 pixels (top row first, 4 bytes a pixel,
 * rows packed) as an 8-bit RGBA PNG. Deterministic: no time or other
 * metadata, so the same pixels give the same bytes. vskin's blocks come
 * from `allocator` (NULL: malloc; libpng's state from libpng's). Errors:
 * VS_ERROR_ARGUMENT (rgba or path NULL, a zero size, a half-set
 * allocator), VS_ERROR_IO, VS_ERROR_OUT_OF_MEMORY. */
vs_result vs_write_png(const uint8_t *rgba, uint32_t width, uint32_t height,
                       const char *path, const vs_allocator *allocator,
                       vs_error *error);

/** Reads a PNG of any colour type and depth as RGBA8 (top row first) into
 * `*out_rgba`, from `allocator` (NULL: malloc; free it with that
 * allocator's free, or free(); NULL on failure). Errors:
 * VS_ERROR_ARGUMENT (a NULL argument, a half-set allocator), VS_ERROR_IO
 * (cannot be opened, not a PNG), VS_ERROR_PARSE (a damaged PNG),
 * VS_ERROR_LIMIT (a side over 16384 pixels), VS_ERROR_OUT_OF_MEMORY. */
vs_result vs_read_png(const char *path, const vs_allocator *allocator,
                      uint32_t *out_width, uint32_t *out_height,
                      uint8_t **out_rgba, vs_error *error);

/** An animated GIF being written (vs_gif_writer_open). */
typedef struct vs_gif_writer vs_gif_writer;

/** Starts an animated GIF of `width` x `height` (1 .. 65535 each) frames,
 * each shown for `delay_cs` hundredths of a second (GIF's unit; viewers
 * show delays under 2 as 10), looping forever. The animation gets one
 * palette of up to 256 colours made from all its frames (median cut over
 * their pixels) and every frame is Floyd-Steinberg dithered onto it, so a
 * textured character keeps its colours; the same frames give the same
 * bytes. Memory stays fixed whatever the frame count (a colour histogram,
 * a nearest-colour table and a few rows, about 1.5 MiB): the frames wait
 * in an anonymous temporary file (tmpfile(), 3 bytes per pixel per frame)
 * until vs_gif_writer_close encodes them into a temporary file beside
 * `path` and renames it over it (vs_write_bytes): until then, and
 * after vs_gif_writer_discard or any failure, `path` is untouched. The
 * writer and vskin's blocks for it come from `allocator` (NULL: malloc),
 * which must stay valid until the writer is closed or discarded; giflib's
 * state comes from giflib's allocator.
 *
 * Errors: VS_ERROR_ARGUMENT (path or out_writer NULL, a size out of
 * range, a half-set allocator), VS_ERROR_IO, VS_ERROR_OUT_OF_MEMORY. One
 * writer is used by one thread at a time. */
vs_result vs_gif_writer_open(const char *path, uint32_t width, uint32_t height,
                             uint32_t delay_cs, const vs_allocator *allocator,
                             vs_gif_writer **out_writer, vs_error *error);
/** Appends one frame of RGBA8 pixels (the size given to
 * vs_gif_writer_open, top row first; alpha is ignored). Errors:
 * VS_ERROR_ARGUMENT (a NULL argument), VS_ERROR_IO; after an error the
 * writer only takes vs_gif_writer_close (which then fails and writes
 * nothing) or vs_gif_writer_discard. */
vs_result vs_gif_writer_add(vs_gif_writer *writer, const uint8_t *rgba,
                            vs_error *error);
/** Builds the palette, encodes every frame, renames the GIF over the path
 * and frees the writer (also on failure). Fails with VS_ERROR_IO, writing
 * nothing, when a frame could not be added or read back. NULL is ignored
 * (VS_OK). */
vs_result vs_gif_writer_close(vs_gif_writer *writer, vs_error *error);
/** Frees the writer and removes its temporary file: the path is left as it
 * was (for a caller whose own frames failed). NULL is ignored. */
void vs_gif_writer_discard(vs_gif_writer *writer);

/* ------------------------- baking: static meshes, morph targets, VAT
 * (`vskin bake`; docs/bake.md) */

/** Options of vs_bake_clip_morph and vs_bake_vat_write; zero-initialised
 * (or NULL): 30 frames per second, skinned as vs_pose_mesh_options' zero
 * value, LINEAR morph weights. */
typedef struct vs_bake_clip_options {
    vs_pose_mesh_options mesh; /**< how every frame is posed */
    float fps;                 /**< frames per second, > 0; 0 = 30 */
    /** Morph weights between frames: VS_INTERP_LINEAR (zero) or
     * VS_INTERP_STEP (VS_INTERP_CUBICSPLINE is refused). */
    vs_interpolation interpolation;
} vs_bake_clip_options;

/** The frame times a clip bake samples at `fps` (0 = 30): the clip's start,
 * start + 1/fps, ... and its end as the last frame, so the whole clip is
 * covered; one frame when the clip has no duration. `*out_times` comes
 * from the asset's allocator (vs_load_options.allocator: free it with that
 * allocator's free, or free() for the default), `*out_count` entries. Errors:
 * VS_ERROR_ARGUMENT (a NULL argument, fps negative or not finite),
 * VS_ERROR_NOT_FOUND (no such clip), VS_ERROR_LIMIT (more than 10,000 frames),
 * VS_ERROR_OUT_OF_MEMORY. */
vs_result vs_bake_frame_times(const vs_asset *asset, uint32_t clip, float fps,
                              float **out_times, uint32_t *out_count,
                              vs_error *error);

/** The current pose as a static asset: one root node (identity transform)
 * and one mesh per mesh instance, whose primitives hold the posed
 * positions, normals and tangents in world space and keep the source's
 * topology, texcoords, vertex colours and materials with their images
 * (embedded bytes copied; a URI is read, when written, from the source's
 * folder under its load's path rule); no skin, no animation; the source's up
 * axis and unit (so vs_write_gltf corrects them as for convert). Call
 * vs_pose_update_world first. The new asset is made with the source
 * asset's allocator and owns all its data (free it with
 * vs_asset_free, in any order with the source); write it with vs_write_gltf,
 * or the pose as OBJ with vs_write_pose. `options` may be NULL.
 *
 * Errors: VS_ERROR_ARGUMENT (pose or out_asset NULL), VS_ERROR_NOT_FOUND
 * (no mesh instance in the default scene: nothing to bake), those of
 * vs_pose_mesh_primitive, VS_ERROR_OUT_OF_MEMORY. Thread-safe on a pose no
 * other thread changes. Cost: every vertex skinned once. */
vs_result vs_bake_pose(const vs_pose *pose, const vs_pose_mesh_options *options,
                       vs_asset **out_asset, vs_error *error);

/** Clip `clip` of `asset` as morph targets: the meshes posed at the first
 * frame of vs_bake_frame_times, one morph target per later frame (position
 * and normal deltas against the first; tangents are left out), and a clip
 * of morph weights that replays the frames (each target weight 1 at its
 * frame). The new asset is made with `asset`'s allocator and owns all its
 * data. Errors: VS_ERROR_ARGUMENT (a
 * NULL argument, a bad fps or interpolation), VS_ERROR_NOT_FOUND (no such
 * clip, or nothing to bake), VS_ERROR_LIMIT (more than 10,000
 * frames, or more than 1 GiB of baked vertex data),
 * VS_ERROR_OUT_OF_MEMORY. Thread-safe (the asset is only read). Cost: every
 * vertex skinned once a frame; memory for every frame's deltas. */
vs_result vs_bake_clip_morph(const vs_asset *asset, uint32_t clip,
                             const vs_bake_clip_options *options,
                             vs_asset **out_asset, vs_error *error);

/** Clip `clip` of `asset` as a vertex-animation texture: `base`.bin
 * (positions: one row per frame of vs_bake_frame_times, every vertex of
 * every primitive of every mesh instance in instance order, x y z float32
 * little-endian), `base`.normals.bin (the same for normals, when every
 * primitive has them), `base`.json (the description: frames, times, rows,
 * bounds, primitives) and `base`.glb (the first frame as a static mesh
 * whose vertices the rows follow). `base` is the path without extension.
 * Each file is replaced as vs_write_bytes describes, and none is renamed
 * into place before all are written. Errors: those of vs_bake_clip_morph,
 * and VS_ERROR_IO. Cost: one frame of posed vertices in memory at a time. */
vs_result vs_bake_vat_write(const vs_asset *asset, uint32_t clip,
                            const vs_bake_clip_options *options,
                            const char *base, vs_error *error);

/* ============================================ synthetic assets (benchmarks) */
/** A skinned tube for scale tests without downloads: a chain of joint_count
 * joints along +Y (root at the origin, each bone `length / joint_count`
 * long), rings of `segments` vertices (radius 0.1 * length) from y = 0 to
 * y = length, each vertex weighted on its `influence_count` nearest joints
 * (by bone centre; weights ~ 1 / distance, summing to 1), and one clip
 * ("bend", 2 s, 9 LINEAR keys per joint) that bends the chain about Z.
 * The vertex count is vertex_count rounded up to whole rings (at least 2
 * rings). Valid glTF 2.0 (JOINTS_0/WEIGHTS_0, plus _1 above 4 influences;
 * unsigned byte joints up to 256 joints, else unsigned short). */
typedef struct vs_synthetic_tube_desc {
    /** 1 .. 1001: joint k of the chain is k levels below the root, and the
     * loaders' default vs_limits.max_depth is 1,000 levels. */
    uint32_t joint_count;
    uint32_t vertex_count;    /**< >= 1; rounded up to whole rings */
    uint32_t influence_count; /**< 1 .. 8 */
    uint32_t segments;        /**< vertices per ring; 0 = 16; 3 .. 1024 */
    float length;             /**< 0 = 1 metre */
    /** Where *out_glb comes from; zero: malloc and free. */
    vs_allocator allocator;
} vs_synthetic_tube_desc;

/** The tube as GLB bytes in `*out_glb` (from desc->allocator: free it with
 * that allocator's free, or free() for the default), `*out_size` bytes.
 * Refuses (VS_ERROR_ARGUMENT) counts outside the ranges above or a half-set
 * allocator and, with VS_ERROR_LIMIT, more than 2^26 vertices;
 * VS_ERROR_OUT_OF_MEMORY when the allocator refuses. */
vs_result vs_synthetic_tube(const vs_synthetic_tube_desc *desc,
                            void **out_glb, size_t *out_size, vs_error *error);
/** The rounded vertex count vs_synthetic_tube writes for desc (0 if
 * invalid). */
uint32_t vs_synthetic_tube_vertex_count(const vs_synthetic_tube_desc *desc);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
