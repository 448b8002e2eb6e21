/* SPDX-License-Identifier: MIT */
/*
 * load_pose_print: the basic round trip. Load a model (a file, or the
 * embedded SimpleSkin when none is given), list what the runtime model holds
 * (nodes, skins, clips), sample one clip at one time, and print the posed
 * bounds and the first skinned vertices of every mesh instance.
 *
 *   example_load_pose_print [FILE [TIME [CLIP]]]
 *
 * TIME defaults to 1 s and wraps around the clip (VS_TIME_LOOP); CLIP is a
 * clip name or index and defaults to the first clip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <vskin/vskin.h>

static const char *format_name(vs_source_format format)
{
    switch (format) {
    case VS_FORMAT_GLTF2:
        return "glTF 2.0";
    case VS_FORMAT_GLTF1:
        return "glTF 1.0";
    case VS_FORMAT_COLLADA:
        return "COLLADA";
    default:
        return "unknown";
    }
}

/* Every loader reports through the same vs_error, so one helper covers all
 * the calls: the message already names the file, the object and the problem.
 */
static int fail(const char *what, const vs_error *err)
{
    fprintf(stderr, "load_pose_print: %s: %s (%s)\n", what, err->message,
            vs_result_string(err->code));
    return 1;
}

static void print_model(const vs_asset *asset)
{
    printf("%s: %s, %u nodes, %u skins, %u clips, %u mesh instances\n",
           asset->source_name, format_name(asset->format), asset->node_count,
           asset->skin_count, asset->clip_count, asset->instance_count);

    for (uint32_t i = 0; i < asset->node_count; ++i) {
        const vs_node *node = &asset->nodes[i];
        /* Names may be empty ("" when the file has none), never NULL. */
        printf("  node %u \"%s\": parent %d, mesh %d, skin %d\n", i, node->name,
               node->parent, node->mesh, node->skin);
    }
    for (uint32_t s = 0; s < asset->skin_count; ++s) {
        const vs_skin *skin = &asset->skins[s];
        printf("  skin %u \"%s\": %u joints:", s, skin->name,
               skin->joint_count);
        /* Joints are already resolved to node indices, whatever the format
         * called them (glTF indices, glTF 1.0 jointNames, COLLADA sids). */
        for (uint32_t j = 0; j < skin->joint_count; ++j)
            printf(" node %u \"%s\"", skin->joints[j],
                   asset->nodes[skin->joints[j]].name);
        printf("\n");
    }
    for (uint32_t c = 0; c < asset->clip_count; ++c) {
        const vs_clip *clip = &asset->clips[c];
        printf("  clip %u \"%s\": %g .. %g s, %u channels\n", c, clip->name,
               clip->start, clip->end, clip->channel_count);
    }
}

/* Prints the first few world-space vertices of every primitive of every mesh
 * instance, skinned (and morphed) for the pose's current state. */
static int print_vertices(const vs_asset *asset, const vs_pose *pose)
{
    vs_error err;
    for (uint32_t i = 0; i < asset->instance_count; ++i) {
        uint32_t node = asset->instances[i];
        const vs_mesh *mesh = &asset->meshes[asset->nodes[node].mesh];
        for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
            vs_posed_primitive posed;
            /* NULL options: world space, linear blend, normalised weights. */
            if (vs_pose_mesh_primitive(pose, node, p, NULL, &posed, &err) !=
                VS_OK)
                return fail("vs_pose_mesh_primitive", &err);
            printf("node %u \"%s\" primitive %u: %u vertices\n", node,
                   asset->nodes[node].name, p, posed.vertex_count);
            uint32_t shown = posed.vertex_count < 3 ? posed.vertex_count : 3;
            for (uint32_t v = 0; v < shown; ++v) {
                const float *pos = &posed.positions[3 * v];
                printf("  vertex %u: (%.4f, %.4f, %.4f)\n", v, pos[0], pos[1],
                       pos[2]);
            }
            /* The arrays belong to the caller. */
            vs_posed_primitive_free(&posed);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : NULL;
    float time = 1.0f;
    const char *clip_name = argc > 3 ? argv[3] : "0";
    if (argc > 2) {
        char *end;
        time = strtof(argv[2], &end);
        if (end == argv[2] || *end != '\0') {
            fprintf(stderr, "load_pose_print: TIME \"%s\" is not a number\n",
                    argv[2]);
            return 2;
        }
    }

    vs_error err;
    vs_asset *asset = NULL;
    vs_result r;
    if (path) {
        /* NULL options: default resource limits, and external buffers only
         * from the model's own folder. */
        r = vs_asset_load_file(path, NULL, &asset, &err);
    } else {
        /* The library carries a small model, so the program runs with no
         * file at all. */
        size_t size;
        const void *data = vs_default_asset_data(&size);
        r = vs_asset_load_memory(data, size, "SimpleSkin.gltf (embedded)", NULL,
                                 &asset, &err);
    }
    if (r != VS_OK) return fail("load", &err);
    print_model(asset);

    /* A pose is the per-character mutable state; the asset stays shared and
     * read-only. */
    vs_pose *pose;
    if (vs_pose_create(asset, &pose, &err) != VS_OK) {
        vs_asset_free(asset);
        return fail("vs_pose_create", &err);
    }

    int status = 0;
    vs_pose_reset(pose); /* rest pose, default morph weights */
    int32_t clip = vs_asset_find_clip(asset, clip_name);
    if (clip >= 0) {
        /* Sampling only writes local transforms... */
        if (vs_pose_sample(pose, (uint32_t)clip, time, VS_TIME_LOOP, &err) !=
            VS_OK) {
            status = fail("vs_pose_sample", &err);
            goto done;
        }
        printf("pose: clip %d at t = %g s (looped)\n", clip, time);
    } else if (asset->clip_count > 0) {
        fprintf(stderr, "load_pose_print: no clip \"%s\"\n", clip_name);
        status = 1;
        goto done;
    } else {
        printf("pose: rest pose (the model has no clip)\n");
    }
    /* ...so the world matrices are brought up to date before anything reads
     * them (bounds, joint matrices, posed meshes). */
    vs_pose_update_world(pose);

    float lo[3], hi[3];
    bool any = false;
    if (vs_pose_bounds(pose, NULL, lo, hi, &any, &err) != VS_OK) {
        status = fail("bounds", &err);
        goto done;
    }
    if (any)
        printf("posed bounds: (%.4f, %.4f, %.4f) .. (%.4f, %.4f, %.4f)\n",
               lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
    else
        printf("posed bounds: none (no vertex)\n");
    status = print_vertices(asset, pose);

done:
    vs_pose_free(pose);
    vs_asset_free(asset);
    return status;
}
