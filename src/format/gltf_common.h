/* SPDX-License-Identifier: MIT */
/* Pieces glTF 2.0 and glTF 1.0 share: base64, URI resolution, binary
 * container parsing and accessor decoding from a plain descriptor (the JSON
 * side of accessors differs between the versions, the bytes do not). */
#ifndef VS_FORMAT_GLTF_COMMON_H
#define VS_FORMAT_GLTF_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/read_file.h"
#include "vskin/vskin.h"

/* glTF componentType values. */
enum {
    GLTF_BYTE = 5120,
    GLTF_UNSIGNED_BYTE = 5121,
    GLTF_SHORT = 5122,
    GLTF_UNSIGNED_SHORT = 5123,
    GLTF_UNSIGNED_INT = 5125,
    GLTF_FLOAT = 5126
};

/* The bytes of a buffer URI: from the load's allocator (a data: URI, or a
 * file read from disk) or from its file reader (from_reader). */
typedef file_bytes gltf_bytes;

/* Strict RFC 4648 base64 (padding optional, no whitespace):
 * VS_ERROR_PARSE on any bad character or length, VS_ERROR_OUT_OF_MEMORY.
 * *out comes from alloc (NULL: malloc). */
vs_result base64_decode(const vs_allocator *alloc, const char *in, size_t len,
                        uint8_t **out, size_t *out_len);

/* Loads a buffer/image URI through io: "data:...;base64,..." or a relative
 * file path (percent-decoded, resolved against base_dir, read by io's file
 * reader or from disk). Absolute paths and ".." components that leave
 * base_dir are refused before anything is read; from disk, so is a path
 * whose real path (links resolved) is not inside base_dir's, and the file
 * is read at its real path. max_size bounds the
 * result. `path` is the JSON path used in messages (e.g. "buffers[0].uri").
 * Give the bytes back with file_bytes_release(io, out). */
vs_result gltf_load_uri_io(const load_io *io, const char *source_name,
                           const char *base_dir, const char *uri,
                           const char *path, uint64_t max_size,
                           bool allow_external, gltf_bytes *out,
                           vs_error *error);
/* The same from disk into malloc'd bytes (free out->data with free()). */
vs_result gltf_load_uri(const char *source_name, const char *base_dir,
                        const char *uri, const char *path, uint64_t max_size,
                        bool allow_external, gltf_bytes *out, vs_error *error);

/* Binary containers: GLB (glTF 2.0, version 2: JSON chunk + optional BIN
 * chunk) and KHR_binary_glTF (glTF 1.0, version 1: scene JSON + body).
 * Pointers refer into `data`. *version receives 1 or 2. A version 2 GLB
 * without a BIN chunk gives a non-NULL *bin with *bin_size 0; bytes after
 * the header's length are ignored. A chunk length that is not a multiple
 * of 4 is read as written (the next chunk starts right after it). */
vs_result glb_parse(const uint8_t *data, size_t size, const char *source_name,
                    const char **json, size_t *json_size, const uint8_t **bin,
                    size_t *bin_size, uint32_t *version, vs_error *error);

/* Flaws glb_parse_noted reads past, for the loader to warn about. */
typedef struct glb_notes {
    int unaligned_chunk;       /* first chunk whose length is not a multiple
                                  of 4, -1 when none */
    uint32_t unaligned_length; /* its length */
} glb_notes;

/* glb_parse that also fills *notes (when not NULL). */
vs_result glb_parse_noted(const uint8_t *data, size_t size,
                          const char *source_name, const char **json,
                          size_t *json_size, const uint8_t **bin,
                          size_t *bin_size, uint32_t *version,
                          glb_notes *notes, vs_error *error);

/* Accessor bytes described independently of the JSON. */
typedef struct gltf_accessor_desc {
    const uint8_t *data;     /* first element; NULL means all zeros */
    size_t available;        /* bytes readable from data */
    size_t stride;           /* bytes between elements; 0 = packed */
    uint32_t count;          /* elements */
    uint32_t component_type; /* GLTF_BYTE..GLTF_FLOAT */
    uint32_t components;     /* 1,2,3,4 (SCALAR..VEC4), 4/9/16 (MAT2/3/4) */
    bool normalized;
    /* MAT2/MAT3/MAT4: columns are padded to 4 bytes. Needed because MAT2 and
     * VEC4 both have 4 components; false (the zero value) = vector. */
    bool is_matrix;
} gltf_accessor_desc;

/* Size of one component type in bytes, 0 if unknown. */
size_t gltf_component_size(uint32_t component_type);
/* Bytes one element occupies, with the MAT2/MAT3 column padding rules for
 * 1- and 2-byte components (glTF 2.0 §3.6.2.4). */
size_t gltf_element_size(const gltf_accessor_desc *desc);
/* Checks that count elements at stride fit in `available` bytes (the last
 * element without the padding after its last matrix column). */
bool gltf_accessor_fits(const gltf_accessor_desc *desc);

/* Decodes every element to floats (count * components), applying the
 * normalized-integer rules of glTF 2.0 §3.11 when desc->normalized. The caller
 * has checked gltf_accessor_fits. */
void gltf_decode_floats(const gltf_accessor_desc *desc, float *out);
/* Decodes integer elements to uint32 (count * components); floats are
 * truncated. */
void gltf_decode_uints(const gltf_accessor_desc *desc, uint32_t *out);

/* glTF 2.0's rule for an inverse bind matrix (§3.7.3.1, the validator's
 * ACCESSOR_INVALID_IBM): affine, its last row 0 0 0 1 (column-major
 * m[3], m[7], m[11], m[15]) within a tolerance that forgives text rounded
 * to a few digits. The loader refuses others; the writer refuses to write
 * one, as glTF 2.0 cannot express a projective bind. */
#define GLTF_IBM_AFFINE_TOLERANCE 1e-4f
bool gltf_ibm_is_affine(const float m[16]);

#endif
