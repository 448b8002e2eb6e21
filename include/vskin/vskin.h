/* SPDX-License-Identifier: MIT */
/**
 * @file vskin.h
 * @brief vskin — skeletal vertex skinning for glTF 2.0, glTF 1.0 and COLLADA.
 *
 * This header is the contract. Data flows one way:
 *
 * @verbatim
   file -> loader -> vs_asset (immutable) -> vs_pose (per instance)
   -> joint matrices -> vs_skinning_job -> your buffers / writers / renderer
   @endverbatim
 *
 * Conventions
 * - Every fallible call returns vs_result and fills an optional vs_error whose
 *   message names the file, the object path (such as
 *   "skins[0].inverseBindMatrices") and what is wrong.
 * - Matrices are column-major 4x4 float[16] (glTF/OpenGL order: m[col*4+row]),
 *   column vectors: v' = M * v.
 * - Quaternions are (x, y, z, w) as in glTF.
 * - Options structs: the zero value is the sensible default.
 * - An asset is immutable after load and may be shared between threads; a pose
 *   belongs to one instance and one thread at a time. No global state.
 */
/**
 * @mainpage vskin API reference
 *
 * The public C interface of vskin, in two headers:
 * - vskin.h: loading (glTF 2.0, glTF 1.0, COLLADA), the runtime model, poses
 *   and animation, joint matrices, CPU skinning (linear and dual-quaternion),
 *   prepared skin streams, bounds, validation and reweighting, threads and
 *   crowds;
 * - vskin_render.h: GPU skinning and pictures with OpenGL ES 3.0 over EGL.
 *
 * Start with the conventions in vskin.h. Guides are in the repository's
 * docs/ folder.
 */
#ifndef VSKIN_VSKIN_H
#define VSKIN_VSKIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility; what this header declares
 * is its exported interface. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/** Major version of this header. */
#define VS_VERSION_MAJOR 0
/** Minor version of this header. */
#define VS_VERSION_MINOR 1
/** Patch version of this header. */
#define VS_VERSION_PATCH 0
/** Version of this header, "MAJOR.MINOR.PATCH" (compare with vs_version()). */
#define VS_VERSION_STRING "0.1.0"

/** The version of the library that runs, "MAJOR.MINOR.PATCH": the shared
 * library's own, where VS_VERSION_STRING is the header's the program was
 * compiled with. A program can compare the two to detect a mismatch. Never
 * NULL; a static string. Thread-safe. */
const char *vs_version(void);

/* ------------------------------------------------------------------ results */

/** What a fallible call returns: VS_OK or the kind of failure. */
typedef enum vs_result {
    VS_OK = 0,              /**< success */
    VS_ERROR_ARGUMENT,      /**< the caller passed something invalid */
    VS_ERROR_IO,            /**< a file could not be opened or read / written */
    VS_ERROR_PARSE,         /**< the bytes are not valid JSON / XML / GLB */
    VS_ERROR_INVALID,       /**< well-formed, but breaks the format's rules */
    VS_ERROR_UNSUPPORTED,   /**< valid, but vskin does not support it */
    VS_ERROR_LIMIT,         /**< exceeds a configured resource limit */
    VS_ERROR_OUT_OF_MEMORY, /**< an allocation failed */
    VS_ERROR_NOT_FOUND,     /**< a named clip / node / object does not exist */
    VS_ERROR_RENDER         /**< the GPU path failed (EGL/GL) */
} vs_result;

/** Size in bytes of vs_error::message, terminating NUL included. */
#define VS_ERROR_MESSAGE_SIZE 1024

/** Details of a failure, filled by the call that returns it. */
typedef struct vs_error {
    vs_result code;                      /**< the result the call returned */
    char message[VS_ERROR_MESSAGE_SIZE]; /**< "file: path: what is wrong" */
} vs_error;

/** A short English name for a result code ("invalid input", ...). */
const char *vs_result_string(vs_result result);

/* ------------------------------------------------------------- the model */

/** The file format an asset was loaded from. */
typedef enum vs_source_format {
    VS_FORMAT_UNKNOWN = 0, /**< not recognised */
    VS_FORMAT_GLTF2,       /**< glTF 2.0 (.gltf or .glb) */
    VS_FORMAT_GLTF1,       /**< glTF 1.0 */
    VS_FORMAT_COLLADA      /**< COLLADA */
} vs_source_format;

/** Local transform as translation, rotation (x,y,z,w), scale. */
typedef struct vs_trs {
    float translation[3]; /**< x, y, z */
    float rotation[4];    /**< unit quaternion (x, y, z, w) */
    float scale[3];       /**< x, y, z */
} vs_trs;

/** A node of the scene graph: hierarchy, rest transform, mesh and skin. */
typedef struct vs_node {
    const char *name;     /**< never NULL; "" when the file has none */
    const char *id;       /**< glTF 1.0 / COLLADA id, else NULL */
    const char *sid;      /**< COLLADA sid / glTF 1.0 jointName, else NULL */
    int32_t parent;       /**< -1 for a root */
    uint32_t child_count; /**< number of entries in children */
    const uint32_t *children; /**< node indices of the children */
    /** Rest (default) local transform. When has_matrix is true, matrix is the
     * authoritative rest transform (it may hold shear) and rest_trs is its
     * decomposition, used only once an animation channel targets the node. */
    bool has_matrix;
    float matrix[16];  /**< rest local matrix (see has_matrix) */
    vs_trs rest_trs;   /**< rest local transform as TRS (see has_matrix) */
    int32_t mesh; /**< -1 when none */
    int32_t skin; /**< -1 when none */
    /** Default morph weights of this node (glTF node.weights), else NULL;
     * weight_count of them. @{ */
    uint32_t weight_count;
    const float *weights;
    /** @} */
} vs_node;

/** How a primitive's vertices form points, lines or triangles (glTF modes). */
typedef enum vs_primitive_mode {
    VS_MODE_POINTS = 0,         /**< points */
    VS_MODE_LINES = 1,          /**< separate lines */
    VS_MODE_LINE_LOOP = 2,      /**< closed line strip */
    VS_MODE_LINE_STRIP = 3,     /**< line strip */
    VS_MODE_TRIANGLES = 4,      /**< separate triangles */
    VS_MODE_TRIANGLE_STRIP = 5, /**< triangle strip */
    VS_MODE_TRIANGLE_FAN = 6    /**< triangle fan */
} vs_primitive_mode;

/** Morph target deltas; each array is NULL when the target lacks it. */
typedef struct vs_morph_target {
    const float *positions; /**< 3 per vertex */
    const float *normals;   /**< 3 per vertex */
    const float *tangents;  /**< 3 per vertex (no w delta) */
} vs_morph_target;

/** Vertex data decoded to plain arrays (whatever the stored component type). */
typedef struct vs_primitive {
    vs_primitive_mode mode;  /**< how the vertices are assembled */
    uint32_t vertex_count;   /**< vertices in every per-vertex array */
    const float *positions; /**< 3 per vertex, never NULL */
    const float *normals;   /**< 3 per vertex or NULL */
    const float *tangents;  /**< 4 per vertex (w = handedness) or NULL */
    const float *texcoords; /**< 2 per vertex (TEXCOORD_0) or NULL */
    /** Skinning influences: influence_count per vertex (4 per JOINTS_n/
     * WEIGHTS_n set, so 4, 8, 12...). Weights are the stored values, decoded
     * from normalized integers where needed, not renormalized.
     * 0 = unskinned. */
    uint32_t influence_count;
    const uint16_t *joints; /**< influence_count joint indices per vertex */
    const float *weights;   /**< influence_count weights per vertex */
    uint32_t index_count; /**< 0 = non-indexed */
    const uint32_t *indices; /**< index_count vertex indices */
    uint32_t target_count;           /**< number of morph targets */
    const vs_morph_target *targets;  /**< target_count morph targets */
    int32_t material; /**< index into vs_asset::materials; -1 when none */
    /** For formats that de-index (COLLADA): output vertex -> source position
     * index, else NULL. */
    const uint32_t *source_vertex;
    /** COLOR_0 as 4 per vertex (RGB sets get alpha 1), decoded from
     * normalized integers where needed; NULL when absent. */
    const float *colors;
    /** 2 per vertex: the TEXCOORD_n set its material's base colour texture
     * reads (vs_texture_ref.texcoord), which is `texcoords` for set 0; NULL
     * when the material has no texture or the primitive lacks that set (the
     * texture is then not sampled). */
    const float *base_color_texcoords;
} vs_primitive;

/** A mesh: its primitives and default morph weights. */
typedef struct vs_mesh {
    const char *name;               /**< the mesh's name */
    uint32_t primitive_count;       /**< number of primitives */
    const vs_primitive *primitives; /**< primitive_count primitives */
    uint32_t weight_count; /**< default morph weights (mesh.weights) */
    const float *weights;  /**< weight_count weights, or NULL */
} vs_mesh;

/** How a texture is sampled: glTF 2.0 sampler values, which are the
 * OpenGL enums (§5.26). Zero fields take glTF's defaults. */
typedef struct vs_sampler {
    /** 9728 NEAREST or 9729 LINEAR; 0: unset (the renderer uses LINEAR). */
    uint32_t mag_filter;
    /** 9728 NEAREST, 9729 LINEAR or one of the mipmap modes 9984..9987;
     * 0: unset (the renderer uses LINEAR_MIPMAP_LINEAR). */
    uint32_t min_filter;
    /** 33071 CLAMP_TO_EDGE, 33648 MIRRORED_REPEAT or 10497 REPEAT; 0 means
     * REPEAT. @{ */
    uint32_t wrap_s, wrap_t;
    /** @} */
} vs_sampler;

/** A material's reference to a texture: the image, the texture coordinate
 * set, the sampler and KHR_texture_transform. */
typedef struct vs_texture_ref {
    int32_t image;     /**< index into vs_asset::images; -1: no texture */
    uint32_t texcoord; /**< the TEXCOORD_n set it reads (after the
                            transform's texCoord override) */
    vs_sampler sampler; /**< the texture's sampler, or zero: defaults */
    /** KHR_texture_transform: uv' = T(offset) * R(rotation) * S(scale) * uv,
     * rotation in radians counter-clockwise in UV space, as the extension
     * says. Without it: offset 0, rotation 0, scale 1. @{ */
    bool has_transform;
    float offset[2];
    float rotation;
    float scale[2];
    /** @} */
} vs_texture_ref;

/** How a material's alpha is used (glTF 2.0 material.alphaMode). */
typedef enum vs_alpha_mode {
    VS_ALPHA_OPAQUE = 0, /**< alpha ignored: fully opaque */
    VS_ALPHA_MASK,       /**< opaque where alpha >= alpha_cutoff, else none */
    VS_ALPHA_BLEND       /**< blended over what is behind */
} vs_alpha_mode;

/** A material, as far as vskin uses it: the base colour (factor, texture,
 * vertex colour multiply), alpha and sidedness. glTF 1.0 and COLLADA
 * diffuse colours and textures map onto the same fields. */
typedef struct vs_material {
    const char *name;    /**< the material's name */
    float base_color[4]; /**< baseColorFactor, (1,1,1,1) by default */
    /** baseColorTexture (sRGB), multiplied by base_color; image -1 when
     * absent. */
    vs_texture_ref base_color_texture;
    vs_alpha_mode alpha_mode; /**< OPAQUE by default */
    float alpha_cutoff;       /**< MASK threshold, 0.5 by default */
    bool double_sided;        /**< false: back faces are culled */
} vs_material;

/** An image a texture refers to. The loader does not decode it, nor read
 * an external file: vs_asset_image_bytes gives its bytes on demand. */
typedef struct vs_image {
    const char *name; /**< the image's name, or "" */
    /** The URI as the file gives it (a relative path, or a data: URI), or
     * NULL for bytes held by the asset (a glTF bufferView, GLB). */
    const char *uri;
    /** "image/png", "image/jpeg" or another media type as stated; "" when
     * the file states none (the bytes say which). */
    const char *mime_type;
    /** The embedded bytes, owned by the asset, when uri is NULL. @{ */
    const uint8_t *data;
    size_t size;
    /** @} */
} vs_image;

/** A skin with joints resolved to node indices. glTF 1.0 skins are resolved per
 * instance (through the node's "skeletons"), so one file skin may become
 * several vs_skin entries. */
typedef struct vs_skin {
    const char *name;                     /**< the skin's name */
    uint32_t joint_count;                 /**< number of joints */
    const uint32_t *joints;               /**< node index per joint */
    const float *inverse_bind_matrices;   /**< 16 per joint, or NULL: each the identity */
    float bind_shape_matrix[16];          /**< identity for glTF 2.0 */
    int32_t skeleton;                     /**< skeleton root node or -1 */
} vs_skin;

/** The node property an animation channel drives. */
typedef enum vs_anim_path {
    VS_PATH_TRANSLATION = 0, /**< vs_trs::translation */
    VS_PATH_ROTATION,        /**< vs_trs::rotation */
    VS_PATH_SCALE,           /**< vs_trs::scale */
    VS_PATH_WEIGHTS          /**< the node's morph weights */
} vs_anim_path;

/** How a sampler interpolates between keys (as glTF). */
typedef enum vs_interpolation {
    VS_INTERP_LINEAR = 0, /**< linear (rotations: spherical linear) */
    VS_INTERP_STEP,       /**< holds each key until the next */
    VS_INTERP_CUBICSPLINE /**< cubic Hermite spline with tangents per key */
} vs_interpolation;

/** Keyframes of one animated property. */
typedef struct vs_anim_sampler {
    vs_interpolation interpolation; /**< how values between keys are found */
    uint32_t key_count;             /**< number of keys */
    const float *times; /**< key_count, strictly increasing */
    /** Components per key: 3 (T/S), 4 (R) or the morph target count
     * (weights). */
    uint32_t components;
    /** key_count * components values; for CUBICSPLINE key_count * 3 *
     * components laid out (in-tangent, value, out-tangent) per key, as glTF. */
    const float *values;
} vs_anim_sampler;

/** Binds a sampler of a clip to one property of one node. */
typedef struct vs_anim_channel {
    uint32_t node;     /**< the animated node (index into vs_asset::nodes) */
    vs_anim_path path; /**< the property it drives */
    uint32_t sampler;  /**< index into the clip's samplers */
} vs_anim_channel;

/** An animation clip: channels and the samplers they read. */
typedef struct vs_clip {
    const char *name; /**< "" when unnamed */
    float start;      /**< smallest key time over all samplers */
    float end;        /**< largest key time over all samplers */
    uint32_t channel_count;           /**< number of channels */
    const vs_anim_channel *channels;  /**< channel_count channels */
    uint32_t sampler_count;           /**< number of samplers */
    const vs_anim_sampler *samplers;  /**< sampler_count samplers */
} vs_clip;

/** A scene: its root nodes. */
typedef struct vs_scene {
    const char *name;      /**< the scene's name */
    uint32_t node_count;   /**< number of root nodes */
    const uint32_t *nodes; /**< root nodes */
} vs_scene;

/** The axis that points up in the source file. */
typedef enum vs_up_axis {
    VS_UP_Y = 0, /**< +Y up (glTF) */
    VS_UP_Z,     /**< +Z up */
    VS_UP_X      /**< +X up */
} vs_up_axis;

/** The warnings a load keeps (vs_asset.warnings), the last of them counting
 * any left out. */
#define VS_MAX_WARNINGS 1000

/** A flaw a load repaired, dropped or ignored instead of refusing the file
 * (docs/formats.md, "Refused or repaired"): the pose stays what the file
 * says wherever it can be known. The asset owns the strings. */
typedef struct vs_warning {
    /** Where, as the file names it: a JSON path
     * ("meshes[0].primitives[1].attributes.NORMAL") or a COLLADA line and
     * element, as errors name them ("line 12: <channel>" with the
     * element's identifying attribute); "" for the file as a whole. */
    const char *object;
    /** What is wrong, then what vskin did, after a colon ("3 of 24 vectors
     * are not unit length: normalised"). */
    const char *message;
} vs_warning;

/** The runtime model every loader fills and every consumer reads. */
typedef struct vs_asset {
    vs_source_format format;   /**< the format it was loaded from */
    const char *source_name;   /**< file path, or the name of a memory load */
    const char *generator;     /**< asset.generator / authoring tool, or "" */
    vs_up_axis up_axis;        /**< Y for glTF; COLLADA's `<up_axis>` */
    float unit_meters;         /**< 1 for glTF; COLLADA's `<unit meter>` */

    uint32_t node_count;       /**< number of nodes */
    const vs_node *nodes;      /**< node_count nodes */
    /** Every node index once, parents before children. */
    const uint32_t *node_order;

    uint32_t scene_count;      /**< number of scenes */
    const vs_scene *scenes;    /**< scene_count scenes */
    int32_t default_scene; /**< -1 when the file has no scene: all roots then */

    uint32_t mesh_count;            /**< number of meshes */
    const vs_mesh *meshes;          /**< mesh_count meshes */
    uint32_t material_count;        /**< number of materials */
    const vs_material *materials;   /**< material_count materials */
    uint32_t image_count;           /**< number of images */
    const vs_image *images;         /**< image_count images (undecoded) */
    uint32_t skin_count;            /**< number of skins */
    const vs_skin *skins;           /**< skin_count skins */
    uint32_t clip_count;            /**< number of animation clips */
    const vs_clip *clips;           /**< clip_count clips */

    /** Mesh instances: nodes with a mesh that belong to the default scene (or
     * to any root when there is no scene), in node-index order. This order is
     * the output order of `vskin pose`. @{ */
    uint32_t instance_count;
    const uint32_t *instances;
    /** @} */

    /** What the load repaired, dropped or ignored instead of refusing the
     * file, in the order it met them (see vs_warning); empty after a
     * vs_load_options.strict load, which refuses them instead. At most
     * VS_MAX_WARNINGS are kept; when there were more, one last warning
     * says how many were left out. @{ */
    uint32_t warning_count;
    const vs_warning *warnings;
    /** @} */

    void *internal_; /**< owned memory; do not touch */
} vs_asset;

/* ------------------------------------------------------ memory and files */
/**
 * @page memory Memory and files
 *
 * Where vskin's memory comes from (vs_allocator) and how a load reads its
 * files (vs_file_reader), after cgltf's memory and file options. Both are
 * fields of options structs whose zero value is the default: the C
 * library's malloc and free, and the disk.
 *
 * Which allocator a call uses:
 *   - vs_load_options.allocator: the asset and everything allocated while
 *     it loads (the file's bytes when vskin reads them from disk, buffers,
 *     temporaries), then everything made from the asset: vs_pose_create,
 *     vs_crowd_streams_create (and the skin streams inside), the arrays of
 *     vs_pose_mesh_primitive (vs_posed_primitive.allocator records it for
 *     vs_posed_primitive_free), the temporaries of vs_pose_mesh_primitive,
 *     vs_pose_bounds and vs_pose_fast_bounds, and the scratch of a
 *     vs_crowd_run given no context;
 *   - vs_context_options.allocator: the context and its scratch (which
 *     vs_crowd_run grows to the asset's largest skin);
 *   - vs_skin_stream_desc.allocator: the stream;
 *   - vs_renderer_options.allocator (vskin_render.h): the renderer object;
 *     what a renderer keeps for its asset (primitives, index lists,
 *     normals, scratch) comes from the asset's allocator, and the GL
 *     driver's memory is the driver's.
 *
 * The tools (vskin_tools.h) follow the same rule. A call that works from an
 * asset (or a pose or scene of one) uses the asset's allocator:
 * vs_write_gltf, vs_posed_scene_create (the scene records it in
 * vs_posed_scene.allocator for vs_write_posed_scene), vs_write_pose, the
 * bakes and vs_bake_frame_times, vs_asset_reweight, vs_validate_asset and
 * vs_max_position_error; the assets vs_bake_pose, vs_bake_clip_morph and
 * vs_asset_reweight make are made with the source asset's allocator, so
 * they and everything made from them use it too. The calls with no asset
 * take one: vs_validate_options.load.allocator (vs_validate_file, whose
 * raw pass also reads the file and its buffers through
 * load.file_reader), vs_synthetic_tube_desc.allocator, and the `allocator`
 * argument of vs_write_bytes, vs_gltf_bin_path, vs_write_png, vs_read_png
 * and vs_gif_writer_open (NULL: malloc and free).
 *
 * Every object is freed through the allocator it was made with, so the
 * callbacks and `user` must stay valid until the last object made with them
 * is freed.
 *
 * The libraries vskin builds on: cJSON (glTF, and the JSON the writers and
 * the validator build) and libxml2 (COLLADA) allocate their trees through
 * their own process-wide hooks (cJSON_InitHooks, xmlMemSetup), which vskin
 * never sets, as it keeps no global state: those allocations, freed before
 * the call returns, use whatever the process set (malloc by default).
 * libpng's simplified API and giflib, which the PNG and GIF calls use,
 * take no allocator and use their own. Every allocation vskin itself makes
 * goes through the callbacks.
 *
 * Alignment: alloc must return blocks aligned to alignof(max_align_t)
 * (16 bytes on x86-64 and AArch64), as malloc does. vskin aligns the few
 * tables that need more (32-byte SIMD blocks) inside its blocks itself. A
 * block that is not so aligned is given back to free and counts as a
 * failed allocation.
 *
 * Failure: when alloc returns NULL, the call fails with
 * VS_ERROR_OUT_OF_MEMORY after freeing everything it allocated: no leak, no half-made
 * object. A load never swallows a refusal: the optional tables an asset
 * keeps (sampling plans, skin facts) are left out only where they would
 * pass vs_limits.max_total_memory.
 *
 * Threads: the callbacks run on the thread that makes the call that
 * allocates, never on a context's worker threads. Calls made on several
 * threads at once (loads, vs_pose_create, vs_pose_mesh_primitive...) call
 * them at once, so they must then be thread-safe. No per-frame path calls
 * them: vs_pose_sample, vs_pose_update_world, the joint matrices, the
 * skinning and stream jobs (serial and parallel), vs_context_parallel_for,
 * and vs_crowd_run on a context whose scratch has grown allocate nothing.
 *
 * Files: the reader reads every file a load reads: the file of
 * vs_asset_load_file (its path as given) and the glTF 2.0 and glTF 1.0
 * buffers with a relative URI (the percent-decoded URI after the base
 * folder and a "/": the folder of vs_asset_load_file's path, "./" when it
 * names none, or vs_load_options.base_dir for vs_asset_load_memory, where
 * "" names the reader's root). data: URIs
 * are decoded, not read; COLLADA reads no other file (libxml2 loads no DTD
 * or external entity). The path rules (vs_load_options.allow_external_paths:
 * no absolute path, no ".." above the folder; no other URI scheme) and the
 * size limits are applied before the reader is called, and the size it
 * returns is checked again. What a path means to the reader (symbolic links
 * included) is its business; when vskin reads from disk itself it also
 * refuses, unless allow_external_paths, a file whose real path (every
 * symbolic link resolved) is not inside the folder's real path, and
 * follows links that stay inside (docs/robustness.md). A failure keeps the reader's code and message,
 * with the file and the object named first, as in
 * `scene.gltf: buffers[0].uri: "scene.bin": models/scene.bin: not found`.
 */

/** Where vskin's memory comes from (see @ref memory "Memory and files").
 * The zero value is the C library's malloc and free. Set alloc and free
 * together or neither: a call given only one fails with VS_ERROR_ARGUMENT.
 * There is no realloc: vskin grows its few growing arrays by allocating
 * anew and copying. */
typedef struct vs_allocator {
    /** Returns size bytes (size >= 1) aligned to alignof(max_align_t), or
     * NULL when it cannot. */
    void *(*alloc)(size_t size, void *user);
    /** Frees a block that alloc returned (never called with NULL). */
    void (*free)(void *ptr, void *user);
    void *user; /**< passed to both callbacks as it is */
} vs_allocator;

/** How a load reads its files (see @ref memory "Memory and files"): a
 * virtual file system, an archive, or files already in memory. The zero
 * value reads from disk. */
typedef struct vs_file_reader {
    /** Reads the whole file `path`: on success *out_data and *out_size hold
     * its bytes (*out_data may be NULL when the size is 0), which vskin only
     * reads, and VS_OK is returned. A file larger than max_size should be
     * refused with VS_ERROR_LIMIT (vskin checks the size anyway). On
     * failure, return the reason (VS_ERROR_IO for a file that does not
     * exist) and optionally say why in error->message (which starts empty);
     * nothing is released then. NULL: read from disk (release must be NULL
     * too, or the load fails with VS_ERROR_ARGUMENT). */
    vs_result (*read)(const char *path, uint64_t max_size, void **out_data,
                      size_t *out_size, vs_error *error, void *user);
    /** Gives back what a successful read returned (never NULL data), once
     * the load is done with it, always before the load call returns. NULL:
     * nothing is given back, the reader keeps the bytes (as a memory file
     * system does), and they must stay valid until the load call returns. */
    void (*release)(void *data, size_t size, void *user);
    void *user; /**< passed to both callbacks as it is */
} vs_file_reader;

/* --------------------------------------------------------------- loading */

/** Resource limits a load enforces; zero fields take the defaults. Each is
 * checked before the memory or work it bounds is spent, and a load past one
 * fails with VS_ERROR_LIMIT naming the limit. Together they bound a load: its
 * memory by max_total_memory, its time by the size of what it reads plus
 * the memory it allocates plus max_instanced_vertices (docs/robustness.md). */
typedef struct vs_limits {
    uint64_t max_file_size;    /**< bytes of the file loaded; default 1 GiB */
    uint64_t max_buffer_size;  /**< bytes per buffer; default 1 GiB */
    /** Bytes of memory for the whole load, one budget shared by everything
     * it holds at once: the file's bytes, the JSON tree (an upper bound
     * from the text, refused before parsing), the buffers read, the
     * temporaries and the asset; what the asset keeps stays charged for
     * its life. Default 4 GiB. */
    uint64_t max_total_memory;
    uint32_t max_nodes;        /**< default 1,000,000 */
    uint32_t max_joints;       /**< per skin; default 65,535 */
    uint32_t max_depth;        /**< node hierarchy / XML nesting; default 1,000 */
    /** Elements of one accessor (glTF) or `<accessor count>` (COLLADA), checked
     * before anything is allocated for it; default 67,108,864 (2^26). An
     * accessor without data (no bufferView) costs no bytes of the file but
     * is still decoded, so max_total_memory bounds all of them together. */
    uint64_t max_accessor_elements;
    uint32_t max_keyframes;    /**< keys per animation sampler; default 2^20 */
    /** Vertices visited by the work done per instance rather than per mesh:
     * the per-joint bounds are built once per distinct (mesh, skin) pair of
     * the default scene's instances, over the vertices of that mesh; the
     * sum over those pairs is checked against this before any is built.
     * glTF 1.0 also counts jointNames x skeletons per distinct skin
     * instance here. Default 268,435,456 (2^28). */
    uint64_t max_instanced_vertices;
} vs_limits;

/** Options of vs_asset_load_file and vs_asset_load_memory. */
typedef struct vs_load_options {
    /** Folder used to resolve relative URIs of a memory load (NULL: none, so
     * external files cannot be referenced; "" with a file_reader: the
     * reader's root). */
    const char *base_dir;
    vs_limits limits; /**< zero fields take the defaults above */
    /** false (default): external URIs must stay inside the asset's folder (no
     * absolute paths, no ".." above it; on disk, no symbolic link that
     * resolves outside it). true: both are allowed. Other URI
     * schemes (http:, file:, ...) are never read: vskin has no network
     * access. See docs/robustness.md. */
    bool allow_external_paths;
    /** Where the asset's memory, and that of everything made from it, comes
     * from; zero: malloc and free (see @ref memory "Memory and files"). */
    vs_allocator allocator;
    /** How the load reads files; zero: from disk (see @ref memory
     * "Memory and files"). */
    vs_file_reader file_reader;
    /** false (default): a flaw that leaves the pose known is repaired,
     * dropped or ignored and listed in vs_asset.warnings. true: every such
     * flaw refuses the file instead (VS_ERROR_INVALID, the warning's text
     * as the message), for pipelines that accept only clean files. Flaws
     * that leave the pose unknown are refused either way. */
    bool strict;
} vs_load_options;

/** Loads glTF 2.0 (.gltf/.glb), glTF 1.0 or COLLADA, detected from content. */
vs_result vs_asset_load_file(const char *path, const vs_load_options *options,
                             vs_asset **out_asset, vs_error *error);
/** Loads an asset from memory, as vs_asset_load_file. `name` is used in
 * messages (such as "memory" or the original file name). */
vs_result vs_asset_load_memory(const void *data, size_t size, const char *name,
                               const vs_load_options *options,
                               vs_asset **out_asset, vs_error *error);
/** Frees an asset and everything it owns; NULL is ignored. */
void vs_asset_free(vs_asset *asset);

/** Clip lookup by name, or by decimal index when `name_or_index` is a number.
 * Returns -1 when not found. */
int32_t vs_asset_find_clip(const vs_asset *asset, const char *name_or_index);
/** The node's world matrix in the rest pose (no animation). */
void vs_asset_rest_world(const vs_asset *asset, uint32_t node, float out[16]);

/** The bytes of images[image] (not decoded): the asset's own for an
 * embedded image (nothing to free), else a data: URI decoded or the file
 * read, with the load's URI rules: relative to the asset's folder
 * (vs_load_options.base_dir for a memory load), nothing outside it unless
 * the load allowed external paths, no other scheme, at most
 * vs_limits.max_buffer_size bytes. `reader` reads the file (NULL or zero:
 * the disk, where the file's real path must lie inside the folder); the
 * load's own reader is not kept, as it is only valid during the load.
 * *out_data then comes from the asset's allocator: give it back with
 * vs_asset_image_bytes_free. Errors name the file, images[i] and the URI. */
vs_result vs_asset_image_bytes(const vs_asset *asset, uint32_t image,
                               const vs_file_reader *reader,
                               const uint8_t **out_data, size_t *out_size,
                               vs_error *error);
/** Gives back what vs_asset_image_bytes returned for that image (a no-op
 * for embedded bytes and NULL). */
void vs_asset_image_bytes_free(const vs_asset *asset, uint32_t image,
                               const uint8_t *data, size_t size);

/** The embedded default asset: the glTF tutorial's SimpleSkin (glTF 2.0). */
const void *vs_default_asset_data(size_t *size);

/* ----------------------------------------------------------------- poses */

/** The animated state of one instance of an asset (opaque). */
typedef struct vs_pose vs_pose;

/** What sampling does with a time outside the clip's range. */
typedef enum vs_time_mode {
    VS_TIME_CLAMP = 0, /**< t outside [start, end] holds the first/last key */
    VS_TIME_LOOP       /**< t wraps into [start, end) */
} vs_time_mode;

/** Creates a pose of `asset` in its rest pose, world matrices computed. The
 * asset must outlive the pose. */
vs_result vs_pose_create(const vs_asset *asset, vs_pose **out_pose,
                         vs_error *error);
/** Frees a pose; NULL is ignored. */
void vs_pose_free(vs_pose *pose);
/** The asset the pose was created from. */
const vs_asset *vs_pose_asset(const vs_pose *pose);

/** Every node back to its rest transform and default morph weights. */
void vs_pose_reset(vs_pose *pose);
/** Applies clip `clip` at time t on top of the current local transforms
 * (channels the clip lacks keep their values). */
vs_result vs_pose_sample(vs_pose *pose, uint32_t clip, float time,
                         vs_time_mode mode, vs_error *error);
/** Recomputes every world matrix from the local transforms. */
void vs_pose_update_world(vs_pose *pose);

/** Sets a node's local transform (for callers that drive nodes themselves). */
void vs_pose_set_local(vs_pose *pose, uint32_t node, const vs_trs *trs);
/** A node's current local transform as a matrix. */
void vs_pose_get_local(const vs_pose *pose, uint32_t node, float out[16]);
/** A node's world matrix (float[16]) as of the last vs_pose_update_world;
 * NULL when node is out of range. */
const float *vs_pose_world(const vs_pose *pose, uint32_t node);
/** Current morph weights of a mesh node (node.weights, else mesh.weights,
 * overridden by animation); `*count` = 0 and NULL when it has none. */
const float *vs_pose_morph_weights(const vs_pose *pose, uint32_t node,
                                   uint32_t *count);

/** Joint matrices of `skin` (16 floats per joint, out must hold
 * 16 * joint_count):
 * @verbatim
       J_j = R^-1 * G(joint_j) * IBM_j * BSM
   @endverbatim
 * where R = I (relative_to < 0: world-space skinning, glTF 2.0 and COLLADA)
 * or R = G(relative_to) (object-space skinning relative to that node).
 * Call vs_pose_update_world first. */
vs_result vs_pose_joint_matrices(const vs_pose *pose, uint32_t skin,
                                 int32_t relative_to, float *out,
                                 vs_error *error);

/* ------------------------------------------------------------- skinning */

/** Flags of a skinning job (a bit set in its `flags`). */
typedef enum vs_skin_flags {
    /** Use stored weights as they are. By default each vertex's weights are
     * divided by their sum; a vertex whose weights sum to 0, less, or not a
     * finite number is unskinned: it keeps its input position, normal and
     * tangent bit for bit (copied, not transformed or normalised). */
    VS_SKIN_RAW_WEIGHTS = 1u << 0,
    /** Write the tightly packed outputs (positions, normals: stride 0 or 12)
     * with non-temporal (streaming) stores, which bypass the caches and skip
     * reading each output line before overwriting it. Streamed lines go to
     * memory, so outputs a cache would have kept come back from memory:
     * small jobs lose, big jobs whose outputs the caches cannot hold gain
     * (measurements in docs/performance.md).
     * A vs_skinning_job (and so vs_skinning_job_run_parallel and
     * vs_pose_mesh_options) that sets neither this flag nor
     * VS_SKIN_CACHED_STORES chooses by size: it streams when the bytes it
     * reads and writes (vertex_count times the packed sizes of its joints,
     * weights and attributes, in and out) reach VS_SKIN_STREAMING_AUTO_BYTES,
     * and stores through the caches below.
     * The prepared stream (vs_skin_stream_job, vs_crowd_job) streams only
     * when this flag asks: there streaming measured slower than the caches
     * at every size tried. Set either flag to fix the choice, e.g. this one for
     * big outputs the caller will not read back soon, VS_SKIN_CACHED_STORES for
     * outputs read right after the job. Interleaved outputs, tangents and
     * the dual-quaternion kernels always store through the caches. Results
     * are bit-identical either way. */
    VS_SKIN_STREAMING_STORES = 1u << 1,
    /** Linear blend skinning only: normals by the blended 3x3 A itself,
     * normal' = normalize(A * n), as three.js, Godot and ozz-animation do,
     * instead of the default normalize(sign(det A) * cofactor(A) * n) (the
     * inverse-transpose, exact under any A). Both agree (within rounding)
     * where A is a rotation or a mirror times a uniform scale (A^-T then
     * points as A does); under non-uniform scale or skew this one is an
     * approximation (normals lean off the surface). It skips the cofactor,
     * the determinant and its sign (with FMA, 9 vector operations per
     * normal instead of 24). Lengths that are not a normal float give a
     * zero normal, as by default; the normalisation uses IEEE square root
     * and division only, so each ISA's kernel gives the same floats on
     * every CPU. Accepted by vs_skinning_job (and so vs_pose_mesh_options,
     * whose rigid meshes follow it too), vs_skin_stream_job, vs_crowd_job
     * and the renderer (vs_render_desc.skin_flags); refused
     * (VS_ERROR_ARGUMENT) with VS_SKIN_DUAL_QUATERNION, and in
     * vs_skin_stream_desc and vs_crowd_streams_desc, whose flags are the
     * weights' only. */
    VS_SKIN_NORMALS_BY_MATRIX = 1u << 2,
    /** Store every output through the caches, whatever the job's size (see
     * VS_SKIN_STREAMING_STORES); refused (VS_ERROR_ARGUMENT) together with
     * VS_SKIN_STREAMING_STORES. */
    VS_SKIN_CACHED_STORES = 1u << 3
} vs_skin_flags;

/** The size from which a vs_skinning_job that sets neither
 * VS_SKIN_STREAMING_STORES nor VS_SKIN_CACHED_STORES streams its packed
 * outputs: the last-level cache a core commonly shares (a desktop CPU's,
 * one AMD core complex's). A job that moves more has pushed its first
 * outputs out of that cache before it ends, so caching them buys little,
 * while each cached store first reads its line from memory. */
#define VS_SKIN_STREAMING_AUTO_BYTES ((size_t)32 << 20)

/** How influences are blended (see @ref dqs "dual-quaternion skinning"). */
typedef enum vs_skin_method {
    VS_SKIN_LINEAR = 0,         /**< linear blend skinning: sum_i w_i * J_i */
    VS_SKIN_DUAL_QUATERNION = 1 /**< dual-quaternion skinning with scale */
} vs_skin_method;

/** One skinning job, ozz-style: every buffer with its stride in bytes (0 means
 * tightly packed). Inputs are read-only; nothing allocates. Reentrant: jobs on
 * disjoint outputs may run on different threads at once.
 * @verbatim
     skinMat = sum_i w_i * J[joint_i]
     position' = skinMat * (p, 1)
     normal'   = normalize(inverse-transpose(skinMat3x3) * n), or
                 normalize(skinMat3x3 * n) with VS_SKIN_NORMALS_BY_MATRIX
     tangent'  = normalize(skinMat3x3 * t.xyz), w copied when both strides
                 hold 4 floats (tangent_components == 4)
   @endverbatim */
typedef struct vs_skinning_job {
    size_t vertex_count;          /**< vertices to skin */
    uint32_t influence_count;     /**< influences per vertex, >= 1 */
    const float *joint_matrices;  /**< 16 per joint, column-major */
    uint32_t joint_count;         /**< joint indices must be < joint_count */

    /** Joint indices (influence_count u16 per vertex) and weights
     * (influence_count floats per vertex), each with its stride. @{ */
    const uint16_t *joints;  size_t joints_stride;
    const float *weights;    size_t weights_stride;
    /** @} */

    /** Positions (3 floats per vertex), read from in_positions and written to
     * out_positions, each with its stride. @{ */
    const float *in_positions;  size_t in_positions_stride;
    float *out_positions;       size_t out_positions_stride;
    /** @} */
    /** Optional normals (3 floats per vertex), in and out with their strides;
     * both pointers set or both NULL. @{ */
    const float *in_normals;    size_t in_normals_stride;
    float *out_normals;         size_t out_normals_stride;
    /** @} */
    /** Optional tangents (tangent_components floats per vertex), in and out
     * with their strides; both pointers set or both NULL. @{ */
    const float *in_tangents;   size_t in_tangents_stride;
    float *out_tangents;        size_t out_tangents_stride;
    /** @} */
    uint32_t tangent_components; /**< 3 or 4 (default 4) */

    uint32_t flags; /**< vs_skin_flags */

    /** VS_SKIN_LINEAR when zero-initialised. */
    vs_skin_method method;
    /** VS_SKIN_DUAL_QUATERNION only, optional: VS_DQ_JOINT_FLOATS floats per
     * joint from vs_joint_dual_quaternions. When set, joint_matrices may be
     * NULL. When NULL, the job converts joint_matrices itself (each joint
     * once per run for up to VS_DQ_JOINT_CACHE joints, on the stack; per
     * influence beyond that), so precompute it when one pose is skinned in
     * many jobs. */
    const float *joint_dual_quaternions;
    uint32_t isa;   /**< vs_isa: which kernel runs; 0 (VS_ISA_AUTO) = fastest */
} vs_skinning_job;

/** Checks a job without running it: counts, method (and
 * VS_SKIN_NORMALS_BY_MATRIX with linear skinning only), required buffers,
 * in/out pairs and strides (VS_ERROR_ARGUMENT names the first problem). */
vs_result vs_skinning_job_validate(const vs_skinning_job *job, vs_error *error);
/** Validates, then runs the kernel that job->isa names (VS_ISA_AUTO: the
 * fastest this CPU has; see "Skinning kernels" below). Every kernel matches
 * vs_skinning_job_run_reference within 1e-5 * max(1, |reference|), for both
 * methods. Dual quaternions have SSE2 and AVX2+FMA kernels and a plain C
 * one (VS_ISA_PORTABLE); VS_ISA_AVX512 runs the AVX2 one for them. */
vs_result vs_skinning_job_run(const vs_skinning_job *job, vs_error *error);
/** The scalar reference implementation (double arithmetic, one vertex at a
 * time; ignores job->isa). Validates first. */
vs_result vs_skinning_job_run_reference(const vs_skinning_job *job,
                                        vs_error *error);

/* ------------------------------------------- posed meshes (convenience) */

/** Posed geometry of one primitive of a mesh instance, world space. Arrays are
 * owned by the caller (see vs_posed_primitive_free). */
typedef struct vs_posed_primitive {
    uint32_t vertex_count; /**< vertices in each array */
    float *positions; /**< 3 per vertex */
    float *normals;   /**< 3 per vertex or NULL */
    float *tangents;  /**< 4 per vertex or NULL */
    /** What the arrays were allocated with, which vs_posed_primitive_free
     * uses: the asset's allocator, filled by vs_pose_mesh_primitive; zero
     * for arrays a caller allocated with malloc. */
    vs_allocator allocator;
} vs_posed_primitive;

/** Where skinned results land. */
typedef enum vs_skin_space {
    /** World space (glTF 2.0, glTF 1.0 after the mesh node's transform, and
     * COLLADA's default). */
    VS_SPACE_WORLD = 0,
    /** Relative to the skin's skeleton root (vs_skin.skeleton: COLLADA's
     * `<instance_controller><skeleton>`, glTF's skin.skeleton), as COLLADA's
     * object-space skinning: J_j = G(root)^-1 * G(joint_j) * IBM_j * BSM.
     * Skins without a skeleton root, and rigid meshes, stay in world space. */
    VS_SPACE_SKELETON = 1
} vs_skin_space;

/** Options of vs_pose_mesh_primitive and the pose bounds. */
typedef struct vs_pose_mesh_options {
    uint32_t skin_flags; /**< vs_skin_flags */
    vs_skin_space space; /**< VS_SPACE_WORLD when zero-initialised */
    vs_skin_method method; /**< VS_SKIN_LINEAR when zero-initialised */
} vs_pose_mesh_options;

/** Morph targets (current weights), then skinning with world-space joint
 * matrices for skinned nodes (the node's own transform is ignored, glTF 2.0
 * §3.7.3.3), or the node's world matrix for rigid meshes.
 * Call vs_pose_update_world first. */
vs_result vs_pose_mesh_primitive(const vs_pose *pose, uint32_t node,
                                 uint32_t primitive,
                                 const vs_pose_mesh_options *options,
                                 vs_posed_primitive *out, vs_error *error);
/** Frees the arrays of a posed primitive and zeroes it; NULL is ignored. */
void vs_posed_primitive_free(vs_posed_primitive *posed);

/** Bounds of all posed mesh instances (vertices that are not finite left
 * out) into out_min / out_max, and into *out_any (may be NULL) whether
 * there was any vertex; without one, or on an error, the box is all zeros.
 * Call vs_pose_update_world first.
 *
 * Errors: VS_ERROR_ARGUMENT (pose, out_min or out_max NULL), those of
 * vs_pose_mesh_primitive, VS_ERROR_OUT_OF_MEMORY (it poses one primitive at
 * a time, through the asset's allocator). A box over part of the geometry
 * is never returned. */
vs_result vs_pose_bounds(const vs_pose *pose,
                         const vs_pose_mesh_options *options, float out_min[3],
                         float out_max[3], bool *out_any, vs_error *error);

/* ------------------------------------- dual-quaternion skinning (DQS) */
/**
 * @page dqs Dual-quaternion skinning with scale
 *
 * How VS_SKIN_DUAL_QUATERNION blends the joints of a vertex.
 *
 * Dual-quaternion skinning with scale (Kavan et al. 2008, "DQS with scale"):
 * each joint matrix J = [M | t] (M its 3x3 part) is split into a rigid part,
 * a unit dual quaternion (R, t), and a scale/shear matrix S = R^T * M applied
 * before it, so J = [R | t] * S exactly. R is the rotation nearest to M
 * (polar decomposition, found robustly as the dominant eigenvector of
 * Bar-Itzhack's 4x4 matrix, so singular and zero-scale M work too).
 *
 * Rules:
 *   - rigid joints (M^T M = I within 1e-5, det M > 0) get S = I exactly;
 *   - mirroring joints (det M < 0) take R nearest to -M; S = R^T M then holds
 *     the reflection (symmetric, negative determinant), so a joint alone
 *     still gives exactly J;
 *   - where the nearest rotation is not unique (M = 0, or zero scale on two
 *     axes) R = I, so joints scaled to zero blend as in linear skinning;
 *   - per vertex, with w_i the weights under the same rules as linear
 *     skinning (divided by their sum unless VS_SKIN_RAW_WEIGHTS; a sum that
 *     is not positive leaves the vertex as it is):
 * @verbatim
       dq = sum_i w_i * s_i * dq_i, s_i = -1 when real(dq_i) . real(dq_p) < 0
            (p: the vertex's first influence with a non-zero weight; this
            takes the shortest path between q and -q, which are the same
            rotation), then dq /= |real(dq)|;
       S  = sum_i w_i * S_i (blended linearly);
       A  = rotation(dq) * S,  position' = A * p + translation(dq),
       normal' = normalize(inverse-transpose(A) * n),
       tangent' = normalize(A * t.xyz), w copied.
   @endverbatim
 *     A blended real part of length 0 (raw weights summing to 0) gives
 *     R = I, t = 0, so the vertex collapses to S * p as linear skinning does.
 */

/** Floats per joint in vs_joint_dual_quaternions' output (and in the GPU
 * upload): real xyzw, dual xyzw, then S as three columns xyz0. The layout
 * is 5 vec4s, one RGBA32F texel each. */
#define VS_DQ_JOINT_FLOATS 20
/** Joints a job without joint_dual_quaternions converts once per run. */
#define VS_DQ_JOINT_CACHE 128

/** Converts count column-major joint matrices (16 floats each) to the layout
 * above (out: VS_DQ_JOINT_FLOATS * count floats). Every joint is written;
 * VS_ERROR_INVALID names the first joint with a non-finite element (its
 * output is then NaN). Cost: a 4x4 Jacobi eigen solve per joint. */
vs_result vs_joint_dual_quaternions(const float *joint_matrices, uint32_t count,
                                    float *out, vs_error *error);

/* ---------------------------------------------------- skinned bounds */

/** Bind-space box of the vertices joint `joint` influences (weight > 0) in
 * primitive `primitive` of mesh instance asset->instances[instance], in the
 * joint's own bind space (IBM_j * BSM * p, morph extents included; see
 * docs/bounds.md). Built once at load. Returns false when the joint
 * influences no vertex there, or an index is out of range. */
bool vs_asset_joint_bounds(const vs_asset *asset, uint32_t instance,
                           uint32_t primitive, uint32_t joint,
                           float out_min[3], float out_max[3]);

/** A conservative world box of all posed mesh instances from the joint
 * matrices alone: per influence set of each primitive, the joints' images of
 * that set's bind-space boxes intersected with a least-weight blend bound
 * (docs/bounds.md); rigid instances: world matrix x mesh box. It always
 * contains vs_pose_bounds (the exact box) and costs O(influence-set members)
 * per primitive, not O(vertices), except where convexity fails (options with
 * VS_SKIN_RAW_WEIGHTS or VS_SKIN_DUAL_QUATERNION, or negative weights):
 * those primitives are skinned.
 * Call vs_pose_update_world first. *out_any (may be NULL) says whether
 * there was any vertex; without one, or on an error, the box is all zeros.
 * Primitives whose bind boxes the load did not keep (under its memory
 * limit) are skinned too.
 *
 * Errors: VS_ERROR_ARGUMENT (pose, out_min or out_max NULL), those of
 * vs_pose_mesh_primitive, VS_ERROR_INVALID (a skeleton-space box relative
 * to a singular root), VS_ERROR_OUT_OF_MEMORY. */
vs_result vs_pose_fast_bounds(const vs_pose *pose,
                              const vs_pose_mesh_options *options,
                              float out_min[3], float out_max[3],
                              bool *out_any, vs_error *error);

/* ================================================== skinning kernels */

/** A skinning kernel, by the instruction set it uses. SIMD kernels are
 * picked at run time from the CPU's features; one binary runs everywhere.
 * See docs/skinning.md, "Kernels, dispatch and the stream". */
typedef enum vs_isa {
    VS_ISA_AUTO = 0, /**< the fastest kernel this CPU runs */
    VS_ISA_SCALAR,   /**< vs_skinning_job_run_reference (double, per vertex) */
    VS_ISA_PORTABLE, /**< portable C, 4 vertices per step, any CPU: SSE2's
                        floats */
    VS_ISA_SSE2,     /**< x86-64 baseline, 4 vertices per step */
    VS_ISA_AVX2,     /**< AVX2 + FMA, 8 vertices per step */
    VS_ISA_AVX512,   /**< AVX-512F, 16 vertices per step */
    VS_ISA_COUNT     /**< the number of values above, not a kernel */
} vs_isa;

/** The fastest ISA this CPU (and this build) supports. */
vs_isa vs_cpu_best_isa(void);
/** Whether this CPU runs isa (VS_ISA_AUTO, SCALAR and PORTABLE: always). */
bool vs_isa_supported(vs_isa isa);
/** "auto", "scalar", "portable", "sse2", "avx2", "avx512"; "?" otherwise. */
const char *vs_isa_name(vs_isa isa);

/* ---- the prepared skin stream: compact influences built once per mesh --- */

/** How a prepared skin stream stores its weights. */
typedef enum vs_skin_weight_format {
    VS_SKIN_WEIGHTS_UNORM16 = 0, /**< 2 bytes, w = q / 65535, not
                                      renormalised */
    VS_SKIN_WEIGHTS_FLOAT = 1    /**< 4 bytes per weight, exact */
} vs_skin_weight_format;

/** The source influences a skin stream is built from. */
typedef struct vs_skin_stream_desc {
    size_t vertex_count;      /**< vertices in the source */
    uint32_t influence_count; /**< influences per vertex in the source, >= 1 */
    uint32_t joint_count;     /**< <= 256: u8 indices, else u16 */
    /** Joint indices (influence_count u16 per vertex) and weights
     * (influence_count floats per vertex), each with its stride in bytes
     * (0 = packed). @{ */
    const uint16_t *joints;  size_t joints_stride;
    const float *weights;    size_t weights_stride;
    /** @} */
    /** VS_SKIN_RAW_WEIGHTS: keep weights as stored; otherwise they are
     * divided by their sum here, once (a non-positive or non-finite sum
     * makes the vertex unskinned: it keeps its input bit for bit). */
    uint32_t flags;
    vs_skin_weight_format weight_format; /**< how the weights are stored */
    /** Where the stream's memory comes from; zero: malloc and free (see
     * @ref memory "Memory and files"). */
    vs_allocator allocator;
} vs_skin_stream_desc;

/** Compact influences of one mesh, prepared once (opaque). */
typedef struct vs_skin_stream vs_skin_stream;

/** Builds a stream from desc. Immutable once built; may be shared by any
 * number of threads. Zero weights are dropped and vertices grouped by their
 * remaining influence count; within a group (of up to 8 influences),
 * vertices with the same joints follow each other, eight at a time sharing
 * one copy of the joints and skinned together from broadcast joint matrices
 * (docs/skinning.md, "Chunks"). Eight vertices of k >= 2 influences whose
 * lists differ but together name at most 2k joints (and at most 8) may form
 * such a chunk too, in the group of that many joints, a vertex's weight 0
 * for the joints it lacks ("Union chunks"); a joint matrix that is not
 * finite still poisons only the vertices it weights. Stream position s
 * holds the source vertex
 * vs_skin_stream_vertex_order(stream)[s].
 * Errors: joint index >= joint_count (VS_ERROR_INVALID), a weight outside
 * [0, 1] for UNORM16 (VS_ERROR_INVALID), vertex_count >= 2^32 (LIMIT). */
vs_result vs_skin_stream_create(const vs_skin_stream_desc *desc,
                                vs_skin_stream **out_stream, vs_error *error);
/** Frees a stream; NULL is ignored. */
void vs_skin_stream_free(vs_skin_stream *stream);
/** The number of vertices in the stream (the source's vertex_count). */
size_t vs_skin_stream_vertex_count(const vs_skin_stream *stream);
/** Bytes the stream holds per vertex, influences only (not the order). */
double vs_skin_stream_bytes_per_vertex(const vs_skin_stream *stream);
/** Stream position -> source vertex index (vertex_count entries). */
const uint32_t *vs_skin_stream_vertex_order(const vs_skin_stream *stream);
/** Largest influence count kept for any vertex (0 when none). */
uint32_t vs_skin_stream_max_influences(const vs_skin_stream *stream);

/** How the attribute buffers of a vs_skin_stream_job are indexed. */
typedef enum vs_skin_stream_order {
    /** Attribute buffers are indexed by source vertex: inputs are gathered and
     * outputs scattered through the vertex order. No preparation needed. */
    VS_STREAM_ORDER_SOURCE = 0,
    /** Attribute buffers are already permuted into stream order (element s is
     * source vertex order[s]; remap index buffers once with the inverse):
     * purely sequential access, the fastest. */
    VS_STREAM_ORDER_STREAM = 1
} vs_skin_stream_order;

/** Skins stream positions [first_vertex, first_vertex + vertex_count), so
 * threads can split one stream into disjoint ranges. Attribute buffers and
 * strides as in vs_skinning_job (0 = packed); they hold
 * vs_skin_stream_vertex_count(stream) vertices, indexed as `order` says. */
typedef struct vs_skin_stream_job {
    const vs_skin_stream *stream; /**< the prepared influences */
    const float *joint_matrices; /**< desc.joint_count x 16, column-major */
    size_t first_vertex;         /**< first stream position to skin */
    size_t vertex_count;         /**< stream positions to skin */
    uint32_t order; /**< vs_skin_stream_order */

    /** Positions (3 floats per vertex), read from in_positions (required)
     * and written to out_positions, each with its stride. @{ */
    const float *in_positions;  size_t in_positions_stride;
    float *out_positions;       size_t out_positions_stride;
    /** @} */
    /** Optional normals (3 floats per vertex), in and out with their strides;
     * both pointers set or both NULL. @{ */
    const float *in_normals;    size_t in_normals_stride;
    float *out_normals;         size_t out_normals_stride;
    /** @} */
    /** Optional tangents (tangent_components floats per vertex), in and out
     * with their strides; both pointers set or both NULL. @{ */
    const float *in_tangents;   size_t in_tangents_stride;
    float *out_tangents;        size_t out_tangents_stride;
    /** @} */
    uint32_t tangent_components; /**< 3 or 4 (default 4) */
    uint32_t isa;                /**< vs_isa; SCALAR runs PORTABLE */
    /** VS_SKIN_STREAMING_STORES, VS_SKIN_CACHED_STORES (the default here)
     * and VS_SKIN_NORMALS_BY_MATRIX, or 0 (vs_skin_flags); the weight flags
     * belong to the stream's desc. */
    uint32_t flags;
} vs_skin_stream_job;

/** Checks a stream job without running it: required pointers, the range,
 * order, tangent_components, in/out pairs and strides (VS_ERROR_ARGUMENT
 * names the first problem). */
vs_result vs_skin_stream_job_validate(const vs_skin_stream_job *job,
                                      vs_error *error);
/** Validates, then skins the job's range with the kernel job->isa names
 * (VS_ERROR_UNSUPPORTED when this CPU or build lacks it). */
vs_result vs_skin_stream_job_run(const vs_skin_stream_job *job,
                                 vs_error *error);

/* ------------------------------------------------- threads and crowds */

/** A small pthread pool for parallel calls (opaque); see docs/threads.md.
 * Nothing in vskin starts a thread unless the caller creates a context with
 * thread_count >= 2. The calling thread always works too. A context runs one
 * parallel call at a time: use one context per calling thread. */
typedef struct vs_context vs_context;

/** Options of vs_context_create. */
typedef struct vs_context_options {
    /** Threads working on a parallel call, the caller included: 0 or 1 = the
     * caller only (no thread is started); N starts N - 1 workers. At most
     * 256. */
    uint32_t thread_count;
    /** Where the context's memory (and its scratch) comes from; zero:
     * malloc and free (see @ref memory "Memory and files"). */
    vs_allocator allocator;
} vs_context_options;

/** Creates a context; options may be NULL (= caller only). */
vs_result vs_context_create(const vs_context_options *options,
                            vs_context **out_context, vs_error *error);
/** Joins the workers. Must not be called while a parallel call runs. */
void vs_context_free(vs_context *context);
/** Participants of a parallel call, the caller included (>= 1). */
uint32_t vs_context_thread_count(const vs_context *context);

/** One task: indices [begin, end) of the range, run by participant `worker`
 * (0 = the calling thread, 1 .. thread_count - 1 the pool's threads), so a
 * task may use per-worker scratch indexed by it. */
typedef void (*vs_parallel_fn)(void *user, size_t begin, size_t end,
                               uint32_t worker);

/** Calls fn over [0, count) in chunks of `grain` indices (0 = 1) spread over
 * the pool and the caller; returns when every chunk is done. A nested call
 * (from inside fn) or a concurrent call on the same context from another
 * thread returns VS_ERROR_ARGUMENT without running anything. */
vs_result vs_context_parallel_for(vs_context *context, size_t count,
                                  size_t grain, vs_parallel_fn fn, void *user,
                                  vs_error *error);

/** Validates the job, then runs vs_skinning_job_run on disjoint vertex ranges
 * across the pool. Results are identical to vs_skinning_job_run (each vertex
 * is computed by the same code); context may be NULL (= caller only). */
vs_result vs_skinning_job_run_parallel(vs_context *context,
                                       const vs_skinning_job *job,
                                       vs_error *error);

/** The same for a prepared stream's job: validated, then vs_skin_stream_job_run
 * on disjoint ranges of its stream positions across the pool. Results are
 * identical to one vs_skin_stream_job_run. context may be NULL. */
vs_result vs_skin_stream_job_run_parallel(vs_context *context,
                                          const vs_skin_stream_job *job,
                                          vs_error *error);

/** Joint matrices as vs_pose_joint_matrices, packed as 12 floats per joint:
 * row-major 3x4 (the first three rows; the fourth is 0 0 0 1), out must hold
 * 12 * joint_count. VS_ERROR_UNSUPPORTED when a joint matrix is not affine
 * (a projective COLLADA matrix): then use vs_pose_joint_matrices. */
vs_result vs_pose_joint_matrices_3x4(const vs_pose *pose, uint32_t skin,
                                     int32_t relative_to, float *out,
                                     vs_error *error);

/* Crowds: many instances of one asset, each with its own pose, clip, time and
 * placement, sampled, posed, and skinned in one call. */

/** Where one skinned primitive ("slot") lands in a crowd instance's output.
 *
 * Output layout (per instance, one caller-provided float buffer): the
 * asset's skinned primitives ("slots") back to back in the order of
 * asset->instances then mesh primitive order, skipping nodes without a skin
 * and primitives without influences. Each slot holds vertex_count * 3
 * position floats, then (when the job asks for normals and the primitive has
 * them) vertex_count * 3 normal floats. vs_crowd_layout gives the sizes and
 * offsets. Morph targets are not applied on this path. */
typedef struct vs_crowd_slot {
    uint32_t node;           /**< the mesh node */
    uint32_t primitive;      /**< index into its mesh's primitives */
    uint32_t vertex_count;   /**< the primitive's vertices */
    size_t positions_offset; /**< in floats, from the instance's buffer */
    size_t normals_offset;   /**< in floats, SIZE_MAX when none is written */
} vs_crowd_slot;

/** Number of slots and floats per instance. `slots` (may be NULL) receives
 * up to slot_capacity entries. */
vs_result vs_crowd_layout(const vs_asset *asset, bool normals,
                          vs_crowd_slot *slots, uint32_t slot_capacity,
                          uint32_t *out_slot_count, size_t *out_float_count,
                          vs_error *error);

/** Prepared crowds (opaque; docs/threads.md, "Prepared crowds"): every slot
 * of an asset as a prepared skin stream (vs_skin_stream_create) with its
 * positions (and normals) copied into the stream's order, built once and
 * shared by any number of instances, calls and threads. A crowd job that
 * names them skins each slot through vs_skin_stream_job_run in stream order
 * (faster than the plain job: compact influences, read in sequence), and
 * then writes each slot's outputs in that order as well: vertex s of a slot
 * is the source vertex vs_crowd_streams_vertex_order(streams, slot)[s]
 * (remap index buffers once with its inverse). The layout's sizes and
 * offsets are unchanged. */
typedef struct vs_crowd_streams vs_crowd_streams;

/** What vs_crowd_streams_create prepares. */
typedef struct vs_crowd_streams_desc {
    const vs_asset *asset; /**< the asset whose slots are prepared */
    bool normals; /**< also prepare the normals, for jobs with normals */
    /** VS_SKIN_RAW_WEIGHTS or 0: how the streams treat the weights (see
     * vs_skin_stream_desc); crowd jobs using them must ask the same. */
    uint32_t flags;
    vs_skin_weight_format weight_format; /**< UNORM16 (default) or FLOAT */
} vs_crowd_streams_desc;

/** Prepares the streams of every slot. Slots whose primitive has no normals
 * prepare none (the layout gives them none either). Errors: desc or asset
 * NULL (VS_ERROR_ARGUMENT); a primitive's influences as
 * vs_skin_stream_create refuses them, the message naming the mesh and
 * primitive. */
vs_result vs_crowd_streams_create(const vs_crowd_streams_desc *desc,
                                  vs_crowd_streams **out_streams,
                                  vs_error *error);
/** Frees prepared streams; NULL is ignored. */
void vs_crowd_streams_free(vs_crowd_streams *streams);
/** Slots prepared (vs_crowd_layout's slot count). */
uint32_t vs_crowd_streams_slot_count(const vs_crowd_streams *streams);
/** Stream position -> source vertex of slot `slot` (its vertex_count
 * entries), or NULL when there is no such slot. */
const uint32_t *vs_crowd_streams_vertex_order(const vs_crowd_streams *streams,
                                              uint32_t slot);

/** One instance of a crowd: its pose, what to sample, where it stands and
 * where its vertices go. */
typedef struct vs_crowd_instance {
    vs_pose *pose;  /**< created from the job's asset, one per instance */
    int32_t clip;   /**< clip to sample, or -1: keep the pose's local state */
    float time;     /**< sampling time in seconds */
    vs_time_mode time_mode; /**< what a time outside the clip does */
    /** Column-major placement of the instance in the world, applied after
     * the skin (J'_j = placement * J_j). Must be affine (last row 0 0 0 1). */
    float placement[16];
    float *output; /**< vs_crowd_layout's float count, see the layout above */
} vs_crowd_instance;

/** A crowd: many instances of one asset, each with its own pose, clip, time
 * and placement, sampled, posed, and skinned by one vs_crowd_run. */
typedef struct vs_crowd_job {
    const vs_asset *asset;        /**< the asset every instance shows */
    size_t instance_count;        /**< number of instances */
    vs_crowd_instance *instances; /**< poses are written, nothing else */
    bool normals;   /**< also write skinned normals where primitives have
                         them */
    uint32_t flags; /**< vs_skin_flags */
    /** Optional: skin through these prepared streams, built for this asset
     * (and with normals where the job asks for them); outputs are then in
     * each slot's stream order. NULL: the plain job, source order. */
    const vs_crowd_streams *streams;
} vs_crowd_job;

/** For every instance: vs_pose_sample (when clip >= 0), vs_pose_update_world,
 * world-space joint matrices premultiplied by the placement, and every slot
 * skinned into the instance's output. Parallel over instances, or over the
 * vertices of each slot when there are fewer instances than threads.
 * context may be NULL (= caller only). Instances must not share a pose or an
 * output. On error the outputs are unspecified and the message names the
 * first failing instance. */
vs_result vs_crowd_run(vs_context *context, const vs_crowd_job *job,
                       vs_error *error);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* VSKIN_VSKIN_H */
