/* SPDX-License-Identifier: MIT */
/* The objects a posed-mesh writer writes, handed out one at a time: either
 * a scene's objects, already posed, or a pose's mesh instances, each posed
 * when asked and freed when the next one is, so that writing a pose holds
 * the posed vertices of one instance, never of all. */
#ifndef VS_WRITE_OBJECT_STREAM_H
#define VS_WRITE_OBJECT_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"

/* "node4294967295" and its terminator fit. */
enum { OBJECT_LABEL_SIZE = 24 };

typedef struct object_stream {
    uint32_t count; /* objects */
    /* Set by object_stream_of_scene; else the pose's instances are posed. */
    const vs_posed_scene *scene;
    const vs_pose *pose;
    const vs_asset *asset;
    vs_pose_mesh_options options;
    vs_posed_primitive *posed; /* one instance's primitives, or NULL */
    uint32_t posed_capacity;   /* entries of posed */
    uint32_t posed_count;      /* entries holding vertices now */
    vs_posed_object object;    /* what object_stream_pose last gave */
    char shape_label[OBJECT_LABEL_SIZE];
    char pose_label[OBJECT_LABEL_SIZE];
} object_stream;

/* The scene's objects, as they are (nothing is allocated). */
void object_stream_of_scene(object_stream *s, const vs_posed_scene *scene);
/* The mesh instances of the pose's asset, in instance order, to be posed
 * with `options` (NULL: the defaults): allocates room for one instance's
 * primitives from the asset's allocator; free with object_stream_free. */
vs_result object_stream_of_pose(object_stream *s, const vs_pose *pose,
                                const vs_pose_mesh_options *options,
                                vs_error *error);
/* Frees what the stream holds; a stream of a scene holds nothing. */
void object_stream_free(object_stream *s);

/* Object i without its vertices (posed NULL): name, node and topology,
 * which is all a file's header needs. The name lives until the next call. */
void object_stream_shape(object_stream *s, uint32_t i, vs_posed_object *out);
/* Object i with its posed vertices, valid until the next call or
 * object_stream_free. A pose's instance is checked against the load's
 * vs_limits.max_total_memory before it is posed (VS_ERROR_LIMIT), and
 * its posed vertices against its topology (what the header promised). */
vs_result object_stream_pose(object_stream *s, uint32_t i,
                             const vs_posed_object **out, vs_error *error);
/* Whether every primitive of every object has normals, as the posed
 * vertices will: a pose gives normals exactly to primitives that have
 * them (vs_pose_mesh_primitive). */
bool object_stream_normals(object_stream *s);
/* Checks every object's indices against its vertex count (and a scene's
 * posed vertex counts) before anything is written: primitive_check_indices. */
vs_result object_stream_check(object_stream *s, vs_error *error);

#endif
