/* SPDX-License-Identifier: MIT */
/**
 * @file vskin_tools.h
 * @brief vskin tools — what is done with an asset besides posing it:
 * validation, reweighting and synthetic test assets (libvskin_tools).
 *
 * Built on the runtime (vskin.h), in its own library so that a program that
 * only loads, poses and skins links neither libpng nor giflib. Link
 * vskin::tools (CMake) or `pkg-config vskin_tools`; it brings libvskin.
 * The functions here share the runtime's conventions: every fallible call
 * returns vs_result and fills an optional vs_error, objects the library
 * makes have one _free, and nothing keeps global state, so different
 * threads may call them on different objects at once.
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
    vs_load_options load; /**< how vs_validate_file loads the file */
    /** At most this many issues per report (the rest are counted in a final
     * VALIDATION_TRUNCATED info issue); 0 = 10,000. */
    uint32_t max_issues;
} vs_validate_options;

/** Validates a file: for glTF 2.0 a pass over the raw JSON and buffers that
 * collects every problem (so files the loader rejects still get all of
 * them), then the loader (its error, if any, is one more issue, code
 * "LOAD_FAILED"), then model-level skin checks on the loaded asset. Returns
 * VS_OK whenever a report was made (look at its counts); an error only when
 * the file cannot be read or memory runs out. */
vs_result vs_validate_file(const char *path, const vs_validate_options *options,
                           vs_validation_report **out_report, vs_error *error);
/** The model-level checks alone, on any loaded asset. */
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
 * copy owns its meshes, primitives, joints and weights and BORROWS
 * everything else from source: free it (vs_asset_free) before source. stats
 * may be NULL. */
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
    uint32_t joint_count;     /**< 1 .. 65535 */
    uint32_t vertex_count;    /**< >= 1; rounded up to whole rings */
    uint32_t influence_count; /**< 1 .. 8 */
    uint32_t segments;        /**< vertices per ring; 0 = 16; 3 .. 1024 */
    float length;             /**< 0 = 1 metre */
} vs_synthetic_tube_desc;

/** The tube as GLB bytes in `*out_glb` (malloc'd; free() it), `*out_size`
 * bytes. Refuses (VS_ERROR_ARGUMENT) counts outside the ranges above and,
 * with VS_ERROR_LIMIT, more than 2^26 vertices. */
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
