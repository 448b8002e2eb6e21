/* SPDX-License-Identifier: MIT */
/*
 * crowd: many characters of one asset, each with its own pose, clip time and
 * place in the world, sampled, posed and skinned in one vs_crowd_run call
 * spread over a thread pool (vs_context). Prints characters per second and a
 * checksum, and checks that the thread count changes the speed, not the
 * result.
 *
 *   example_crowd [FILE [CHARACTERS [THREADS [FRAMES]]]]
 *
 * Defaults: the embedded SimpleSkin, 1000 characters, 4 threads, 30 frames.
 * See docs/threads.md for the layout and the threading rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vskin/vskin.h>

static int fail(const char *what, const vs_error *err)
{
    fprintf(stderr, "crowd: %s: %s (%s)\n", what, err->message,
            vs_result_string(err->code));
    return 1;
}

static bool parse_count(const char *text, unsigned long max, unsigned long *out)
{
    char *end;
    unsigned long value = strtoul(text, &end, 10);
    if (end == text || *end != '\0' || value == 0 || value > max) return false;
    *out = value;
    return true;
}

static double seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    unsigned long count = 1000, threads = 4, frames = 30;
    if ((argc > 2 && !parse_count(argv[2], 1000000, &count)) ||
        (argc > 3 && !parse_count(argv[3], 256, &threads)) ||
        (argc > 4 && !parse_count(argv[4], 100000, &frames))) {
        fprintf(stderr, "usage: %s [FILE [CHARACTERS [THREADS [FRAMES]]]]\n",
                argv[0]);
        return 2;
    }

    vs_error err;
    vs_asset *asset = NULL;
    vs_result r;
    if (argc > 1) {
        r = vs_asset_load_file(argv[1], NULL, &asset, &err);
    } else {
        size_t size;
        const void *data = vs_default_asset_data(&size);
        r = vs_asset_load_memory(data, size, "SimpleSkin.gltf (embedded)", NULL,
                                 &asset, &err);
    }
    if (r != VS_OK) return fail("load", &err);

    int status = 1;
    vs_context *context = NULL;
    vs_crowd_slot *slots = NULL;
    vs_crowd_instance *instances = NULL;
    float *outputs = NULL, *check = NULL;

    /* The per-character output is one float buffer holding every skinned
     * primitive ("slot") back to back; the layout says how big it is and
     * where each slot's positions and normals start. */
    uint32_t slot_count;
    size_t floats;
    if (vs_crowd_layout(asset, true, NULL, 0, &slot_count, &floats, &err) !=
        VS_OK) {
        fail("vs_crowd_layout", &err);
        goto done;
    }
    if (slot_count == 0) {
        fprintf(stderr, "crowd: %s has no skinned primitive\n",
                asset->source_name);
        goto done;
    }
    slots = malloc(slot_count * sizeof *slots);
    if (!slots) {
        fprintf(stderr, "crowd: out of memory\n");
        goto done;
    }
    if (vs_crowd_layout(asset, true, slots, slot_count, &slot_count, &floats,
                        &err) != VS_OK) {
        fail("vs_crowd_layout", &err);
        goto done;
    }
    size_t vertices = 0; /* skinned vertices per character, all slots */
    for (uint32_t s = 0; s < slot_count; ++s)
        vertices += slots[s].vertex_count;

    /* One context per dispatching thread; thread_count counts the caller,
     * which works too. Creating it starts the threads, so it is made once,
     * not per frame. */
    vs_context_options options = {.thread_count = (uint32_t)threads};
    if (vs_context_create(&options, &context, &err) != VS_OK) {
        fail("vs_context_create", &err);
        goto done;
    }

    instances = calloc(count, sizeof *instances);
    outputs = malloc(count * floats * sizeof(float));
    check = malloc(count * floats * sizeof(float));
    if (!instances || !outputs || !check) {
        fprintf(stderr, "crowd: out of memory\n");
        goto done;
    }
    for (size_t i = 0; i < count; ++i) {
        vs_crowd_instance *inst = &instances[i];
        /* Each character needs its own pose: instances are posed in
         * parallel, and a pose belongs to one thread at a time. */
        if (vs_pose_create(asset, &inst->pose, &err) != VS_OK) {
            fail("vs_pose_create", &err);
            goto done;
        }
        /* -1 keeps whatever the pose holds (here the rest pose). */
        inst->clip = asset->clip_count > 0 ? 0 : -1;
        inst->time_mode = VS_TIME_LOOP;
        /* A 32-wide grid, 2 units apart, so characters do not overlap; the
         * placement is applied after skinning (column-major, affine). */
        memset(inst->placement, 0, sizeof inst->placement);
        inst->placement[0] = inst->placement[5] = inst->placement[10] = 1.0f;
        inst->placement[15] = 1.0f;
        inst->placement[12] = 2.0f * (float)(i % 32);
        inst->placement[14] = 2.0f * (float)(i / 32);
        inst->output = outputs + i * floats;
    }

    vs_crowd_job job = {
        .asset = asset,
        .instance_count = count,
        .instances = instances,
        .normals = true,
    };
    printf("%lu characters of %s: %u skinned primitives, %zu vertices each, "
           "%u threads\n",
           count, asset->source_name, slot_count, vertices,
           vs_context_thread_count(context));

    double start = seconds();
    for (unsigned long f = 0; f < frames; ++f) {
        /* Out of step on purpose: every character at its own clip time. */
        for (size_t i = 0; i < count; ++i)
            instances[i].time = 0.37f * (float)(i % 17) + (float)f / 30.0f;
        if (vs_crowd_run(context, &job, &err) != VS_OK) {
            fail("vs_crowd_run", &err);
            goto done;
        }
    }
    double elapsed = seconds() - start;
    if (elapsed > 0.0)
        printf("%.0f characters/s, %.3g vertices/s\n",
               (double)count * (double)frames / elapsed,
               (double)count * (double)frames * (double)vertices / elapsed);

    double checksum = 0.0;
    for (size_t i = 0; i < count * floats; ++i)
        checksum += outputs[i];
    printf("checksum of the last frame: %.6f\n", checksum);
    /* Slot offsets are in floats from the start of a character's buffer. */
    const float *p = outputs + slots[0].positions_offset;
    printf("character 0, slot 0 (node %u), vertex 0: (%.4f, %.4f, %.4f)\n",
           slots[0].node, p[0], p[1], p[2]);

    /* The same frame again with a NULL context (the caller alone) into
     * other buffers: every vertex goes through the same code whatever the
     * thread count, so the floats match bit for bit. */
    for (size_t i = 0; i < count; ++i)
        instances[i].output = check + i * floats;
    if (vs_crowd_run(NULL, &job, &err) != VS_OK) {
        fail("vs_crowd_run (one thread)", &err);
        goto done;
    }
    bool same = memcmp(outputs, check, count * floats * sizeof(float)) == 0;
    printf("same floats on one thread: %s\n", same ? "yes" : "NO");
    status = same ? 0 : 1;

done:
    /* calloc left every pose not yet created NULL, which frees as nothing. */
    for (size_t i = 0; instances && i < count; ++i)
        vs_pose_free(instances[i].pose);
    free(instances);
    free(slots);
    free(outputs);
    free(check);
    vs_context_free(context);
    vs_asset_free(asset);
    return status;
}
