/* SPDX-License-Identifier: MIT */
/* `vskin info FILE [--json]`: what the asset holds, as text or JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "commands.h"
#include "info.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vskin info [FILE] [--json] [--bounds [--clip C] "
            "[--fps F]]\n\n"
            "Describes the asset: format, generator, up axis and unit, "
            "scenes, nodes,\nmeshes (vertices, influence sets and morph "
            "targets per primitive), skins\n(the joints as a tree) and "
            "animation clips.\n\n"
            "  FILE     glTF 2.0 (.gltf/.glb), glTF 1.0 or COLLADA (.dae); "
            "default: the\n           embedded SimpleSkin\n"
            "  --json   print the same as one JSON object\n"
            "  --bounds per time of a clip, the fast bounds (joint "
            "matrices only) and\n           the exact bounds (skinned "
            "vertices)\n"
            "  --clip C the clip --bounds samples (name or index; default "
            "0)\n"
            "  --fps F  samples per second for --bounds (default 10)\n"
            CLI_LOAD_OPTIONS_HELP
            "  --help   this text\n");
}

const char *info_format_name(vs_source_format format)
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

const char *info_mode_name(vs_primitive_mode mode)
{
    static const char *const names[] = {
        "points",    "lines",          "line_loop",   "line_strip",
        "triangles", "triangle_strip", "triangle_fan"};
    return (unsigned)mode < sizeof names / sizeof names[0] ? names[mode]
                                                           : "unknown";
}

const char *info_up_axis_name(vs_up_axis axis)
{
    return axis == VS_UP_Z ? "Z" : axis == VS_UP_X ? "X" : "Y";
}

int32_t *info_joint_parents(const vs_asset *asset, const vs_skin *skin)
{
    int32_t *joint_of = malloc((asset->node_count + 1) * sizeof *joint_of);
    int32_t *parents = malloc((skin->joint_count + 1) * sizeof *parents);
    if (!joint_of || !parents) {
        free(joint_of);
        free(parents);
        return NULL;
    }
    for (uint32_t n = 0; n < asset->node_count; ++n)
        joint_of[n] = -1;
    for (uint32_t j = skin->joint_count; j-- > 0;)
        joint_of[skin->joints[j]] = (int32_t)j; /* first wins on duplicates */
    for (uint32_t j = 0; j < skin->joint_count; ++j) {
        int32_t p = asset->nodes[skin->joints[j]].parent;
        while (p >= 0 && joint_of[p] < 0)
            p = asset->nodes[p].parent;
        parents[j] = p >= 0 ? joint_of[p] : -1;
    }
    free(joint_of);
    return parents;
}

const char *info_ibm_state(const vs_skin *skin)
{
    if (!skin->inverse_bind_matrices) return "absent";
    for (size_t i = 0; i < 16 * (size_t)skin->joint_count; ++i)
        if (skin->inverse_bind_matrices[i] != ((i % 16) % 5 == 0 ? 1.0f : 0.0f))
            return "yes";
    return "identity";
}

/* Prints joint j and its descendants; `first`/`next` list each joint's
 * children (CSR-like, built once) so the tree costs O(joints). */
static void print_joint(const vs_asset *asset, const vs_skin *skin,
                        const int32_t *first, const int32_t *next, int32_t j,
                        int depth)
{
    char buf[32];
    uint32_t node = skin->joints[j];
    printf("    %*s%s (joint %d, node %u)\n", 2 * depth, "",
           CLI_TEXT(vs_node_label(asset, node, buf, sizeof buf)), j, node);
    for (int32_t c = first[j]; c >= 0; c = next[c])
        print_joint(asset, skin, first, next, c, depth + 1);
}

static bool print_skin(const vs_asset *asset, uint32_t s)
{
    const vs_skin *skin = &asset->skins[s];
    printf("  skin %u \"%s\": %u joint%s, inverse bind matrices: %s\n", s,
           CLI_TEXT(skin->name), skin->joint_count,
           skin->joint_count == 1 ? "" : "s", info_ibm_state(skin));
    int32_t *parents = info_joint_parents(asset, skin);
    int32_t *first = malloc((skin->joint_count + 1) * sizeof *first);
    int32_t *next = malloc((skin->joint_count + 1) * sizeof *next);
    bool ok = parents && first && next;
    if (ok) {
        for (uint32_t j = 0; j < skin->joint_count; ++j)
            first[j] = next[j] = -1;
        /* Prepending in reverse keeps children in joint order. */
        for (uint32_t j = skin->joint_count; j-- > 0;)
            if (parents[j] >= 0) {
                next[j] = first[parents[j]];
                first[parents[j]] = (int32_t)j;
            }
        for (uint32_t j = 0; j < skin->joint_count; ++j)
            if (parents[j] < 0)
                print_joint(asset, skin, first, next, (int32_t)j, 0);
    }
    free(parents);
    free(first);
    free(next);
    return ok;
}

static void print_meshes(const vs_asset *asset)
{
    printf("meshes: %u\n", asset->mesh_count);
    for (uint32_t m = 0; m < asset->mesh_count; ++m) {
        const vs_mesh *mesh = &asset->meshes[m];
        printf("  mesh %u \"%s\": %u primitive%s\n", m,
               CLI_TEXT(mesh->name), mesh->primitive_count,
               mesh->primitive_count == 1 ? "" : "s");
        for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
            const vs_primitive *prim = &mesh->primitives[p];
            printf("    primitive %u: %s, %u vertices, %u indices, %u "
                   "influence set%s, %u morph target%s%s\n",
                   p, info_mode_name(prim->mode), prim->vertex_count,
                   prim->index_count, prim->influence_count / 4,
                   prim->influence_count / 4 == 1 ? "" : "s",
                   prim->target_count, prim->target_count == 1 ? "" : "s",
                   prim->normals ? ", normals" : "");
        }
    }
}

static bool print_text(const vs_asset *asset)
{
    printf("file: %s\nformat: %s\ngenerator: %s\nup axis: %s, unit: %g m\n",
           CLI_TEXT(asset->source_name), info_format_name(asset->format),
           asset->generator && asset->generator[0]
               ? CLI_TEXT(asset->generator)
               : "(none)",
           info_up_axis_name(asset->up_axis), (double)asset->unit_meters);
    printf("scenes: %u (default %d)\n", asset->scene_count,
           asset->default_scene);
    for (uint32_t s = 0; s < asset->scene_count; ++s)
        printf("  scene %u \"%s\": %u root node%s\n", s,
               CLI_TEXT(asset->scenes[s].name),
               asset->scenes[s].node_count,
               asset->scenes[s].node_count == 1 ? "" : "s");
    printf("nodes: %u, mesh instances: %u\n", asset->node_count,
           asset->instance_count);
    print_meshes(asset);
    printf("skins: %u\n", asset->skin_count);
    for (uint32_t s = 0; s < asset->skin_count; ++s)
        if (!print_skin(asset, s)) return false;
    printf("clips: %u\n", asset->clip_count);
    for (uint32_t c = 0; c < asset->clip_count; ++c) {
        const vs_clip *clip = &asset->clips[c];
        printf("  clip %u \"%s\": %g .. %g s (duration %g s), %u channel%s\n",
               c, CLI_TEXT(clip->name), (double)clip->start,
               (double)clip->end, (double)(clip->end - clip->start),
               clip->channel_count, clip->channel_count == 1 ? "" : "s");
    }
    return true;
}

int cmd_info(int argc, char **argv)
{
    cli_options opts = {0};
    bool json = false, bounds = false, fps_given = false;
    const char *clip = NULL;
    float fps = 10.0f;
    for (int i = 1; i < argc; ++i) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
            continue;
        }
        if (strcmp(argv[i], "--bounds") == 0) {
            bounds = true;
            continue;
        }
        if (strcmp(argv[i], "--clip") == 0 || strcmp(argv[i], "--fps") == 0) {
            if (i + 1 >= argc) {
                cli_error("info", "%s needs a value", argv[i]);
                return 2;
            }
            if (argv[i][2] == 'c') {
                clip = argv[++i];
                continue;
            }
            char *end;
            fps_given = true;
            fps = strtof(argv[++i], &end);
            if (end == argv[i] || *end || !(fps > 0.0f) || !isfinite(fps)) {
                cli_error("info", "--fps: '%s' is not a positive number",
                          argv[i]);
                return 2;
            }
            continue;
        }
        int r = cli_parse_common("info", argc, argv, &i, false, &opts);
        if (r < 0) return 2;
        if (r == 0) return cli_unknown("info", argv[i]);
    }
    if (!bounds && (clip || fps_given)) {
        cli_error("info", "--clip and --fps apply to --bounds");
        return 2;
    }
    vs_asset *asset;
    if (!cli_load("info", &opts, &asset)) return 1;
    if (bounds) {
        int status = info_print_bounds(asset, clip, fps, json);
        vs_asset_free(asset);
        return status;
    }
    bool ok = json ? info_print_json(asset) : print_text(asset);
    vs_asset_free(asset);
    if (!ok) {
        cli_error("info", "out of memory");
        return 1;
    }
    return 0;
}
