/* SPDX-License-Identifier: MIT */
/* Writers for posed geometry: Wavefront OBJ, ASCII PLY and a JSON dump.
 * They take posed data (what vs_pose_mesh_primitive and
 * vs_pose_joint_matrices produced) plus the primitives' topology, never CLI
 * state, so any caller can write a pose. Floats are written with %.9g, enough
 * digits for every float to read back to the same value. */
#ifndef VS_WRITE_MESH_WRITERS_H
#define VS_WRITE_MESH_WRITERS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"
#include "write/object_stream.h"

/* The public types of vskin_tools.h under the writers' short names. */
typedef vs_posed_object posed_object;
typedef vs_posed_joint posed_joint;
typedef vs_posed_skin posed_skin;
typedef vs_posed_scene posed_scene;

/* One `o` per object, `v`, `vn` (when the primitive has normals) and faces;
 * points and lines become `p` and `l` elements. Indices are 1-based and run
 * on across objects (OBJ has one vertex list per file). */
vs_result obj_write(const char *path, const posed_scene *scene,
                    vs_error *error);
/* ASCII PLY: one vertex element for all objects (with nx ny nz when every
 * primitive has normals) and a face element with every triangle; points and
 * lines have no PLY face and are skipped with a comment. */
vs_result ply_write(const char *path, const posed_scene *scene,
                    vs_error *error);
/* JSON: source, clip, time, then "objects" (when include_objects) and
 * "skins" (when scene->skins is not NULL, even if empty). */
vs_result pose_json_write(const char *path, const posed_scene *scene,
                          bool include_objects, vs_error *error);

/* The same files with the objects from `objects` (a scene's, or a pose's
 * instances posed one at a time) and the rest from `scene`: labels,
 * allocator and, for JSON, the skins. A failure part way, posing included,
 * leaves the target as it was. JSON: objects NULL writes no "objects". */
vs_result obj_write_objects(const char *path, const posed_scene *scene,
                            object_stream *objects, vs_error *error);
vs_result ply_write_objects(const char *path, const posed_scene *scene,
                            object_stream *objects, vs_error *error);
vs_result pose_json_write_objects(const char *path, const posed_scene *scene,
                                  object_stream *objects, vs_error *error);

/* A JSON number holding the shortest decimal that reads back as `value`
 * (cJSON prints doubles with up to 17 digits; a float needs 9). NaN and
 * infinities become null, which JSON can represent. */
cJSON *json_float(float value);

/* ---- shared by the writers (primitive_faces.c) ---- */

/* Number of triangles the primitive's mode yields (glTF 2.0 §3.7.2.1):
 * triangles n/3, strips and fans n-2; 0 for points and lines. */
uint32_t primitive_triangle_count(const vs_primitive *prim);
/* Vertex indices of triangle t, strips and fans unrolled as the glTF spec
 * defines them, keeping the winding of every triangle. */
void primitive_triangle(const vs_primitive *prim, uint32_t t, uint32_t out[3]);
/* The vertex referenced by element i (indices[i], or i when not indexed). */
uint32_t primitive_element(const vs_primitive *prim, uint32_t i);
/* Number of elements (index_count, or vertex_count when not indexed). */
uint32_t primitive_element_count(const vs_primitive *prim);
/* The line OBJ and PLY open with, after their comment mark: "vskin
 * VERSION: SOURCE, clip N "NAME", t = T" or "..., rest pose", the names
 * escaped (vs_escape_text), and the newline. */
void put_scene_label(FILE *f, const posed_scene *scene);
/* Checks that every index is below the vertex count, so writers never
 * reference a vertex that is not there, and, when the object has posed
 * vertices, that each primitive has as many as its topology. */
vs_result primitive_check_indices(const posed_object *object, vs_error *error);

#endif
