/* SPDX-License-Identifier: MIT */
/*
 * convert_collada: convert a COLLADA file to glTF 2.0 with the public tools
 * API (vs_write_gltf, what `vskin convert` does), load the result back and
 * check that it poses as the source does.
 *
 *   example_convert_collada FILE.dae [OUT.glb|OUT.gltf [TIME]]
 *
 * Defaults: converted.glb in the current folder, t = 0.5 s of the first
 * clip (the rest pose when the file has none). The writer turns COLLADA's
 * up axis and unit into glTF's Y-up metres, so the converted vertices are
 * the source's turned (Z up: -90 degrees about X, X up: +90 about Z) and
 * scaled to metres; everything else (joints, bind shape, weights, clips)
 * must give the same skinned mesh. The file is written next to OUT under a
 * temporary name and renamed, so a failed conversion leaves OUT as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vskin/vskin.h>
#include <vskin/vskin_tools.h>

static int fail(const char *what, const vs_error *err)
{
    fprintf(stderr, "convert_collada: %s: %s (%s)\n", what, err->message,
            vs_result_string(err->code));
    return 1;
}

static float absf(float x)
{
    return x < 0.0f ? -x : x;
}

/* A source position as the converted file holds it: glTF is Y-up in metres
 * (docs/convert.md gives the same mapping). */
static void to_gltf_axes(const vs_asset *source, const float p[3], float out[3])
{
    float s = source->unit_meters;
    if (source->up_axis == VS_UP_Z) {
        out[0] = s * p[0], out[1] = s * p[2], out[2] = -s * p[1];
    } else if (source->up_axis == VS_UP_X) {
        out[0] = -s * p[1], out[1] = s * p[0], out[2] = s * p[2];
    } else {
        out[0] = s * p[0], out[1] = s * p[1], out[2] = s * p[2];
    }
}

/* The asset's clip 0 at t (or its rest pose), world matrices updated. */
static int pose_at(const vs_asset *asset, float t, vs_pose **out)
{
    vs_error err;
    if (vs_pose_create(asset, out, &err) != VS_OK)
        return fail("vs_pose_create", &err);
    if (asset->clip_count > 0 &&
        vs_pose_sample(*out, 0, t, VS_TIME_CLAMP, &err) != VS_OK)
        return fail("vs_pose_sample", &err);
    vs_pose_update_world(*out);
    return 0;
}

/* Every skinned vertex of `converted` against the source's, moved into
 * glTF's axes: the largest difference of a coordinate, relative to its size
 * where that is above 1 m (floats round relative to size). -1 when the
 * meshes do not line up. */
static float largest_difference(const vs_pose *source, const vs_pose *converted)
{
    const vs_asset *a = vs_pose_asset(source), *b = vs_pose_asset(converted);
    if (a->instance_count != b->instance_count) return -1.0f;
    float worst = 0.0f;
    for (uint32_t i = 0; i < a->instance_count; ++i) {
        uint32_t na = a->instances[i], nb = b->instances[i];
        const vs_mesh *ma = &a->meshes[a->nodes[na].mesh];
        for (uint32_t p = 0; p < ma->primitive_count; ++p) {
            vs_posed_primitive pa, pb;
            vs_error err;
            if (vs_pose_mesh_primitive(source, na, p, NULL, &pa, &err) != VS_OK)
                return -1.0f;
            if (vs_pose_mesh_primitive(converted, nb, p, NULL, &pb, &err) !=
                VS_OK) {
                vs_posed_primitive_free(&pa);
                return -1.0f;
            }
            if (pa.vertex_count != pb.vertex_count) worst = -1.0f;
            for (uint32_t v = 0; worst >= 0.0f && v < pa.vertex_count; ++v) {
                float want[3];
                to_gltf_axes(a, pa.positions + 3 * v, want);
                for (int c = 0; c < 3; ++c) {
                    float d = absf(want[c] - pb.positions[3 * v + c]);
                    if (absf(want[c]) > 1.0f) d /= absf(want[c]);
                    worst = d > worst ? d : worst;
                }
            }
            vs_posed_primitive_free(&pa);
            vs_posed_primitive_free(&pb);
            if (worst < 0.0f) return worst;
        }
    }
    return worst;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s FILE.dae [OUT.glb|OUT.gltf [TIME]]\n",
                argv[0]);
        return 2;
    }
    const char *out = argc > 2 ? argv[2] : "converted.glb";
    float t = argc > 3 ? strtof(argv[3], NULL) : 0.5f;
    vs_error err;
    vs_asset *source = NULL, *converted = NULL;
    vs_pose *a = NULL, *b = NULL;
    int status = 1;
    if (vs_asset_load_file(argv[1], NULL, &source, &err) != VS_OK)
        return fail("load", &err);

    /* NULL options: a .gltf gets its buffer in a .bin beside it, and the
     * axes are corrected. The report counts what had to be fixed for the
     * file to be valid glTF 2.0. */
    vs_gltf_write_report report;
    if (vs_write_gltf(source, out, NULL, &report, &err) != VS_OK) {
        status = fail("vs_write_gltf", &err);
        goto done;
    }
    char *bin = vs_gltf_bin_path(out, NULL);
    size_t n = strlen(out);
    bool gltf = n > 5 && strcmp(out + n - 5, ".gltf") == 0;
    printf("wrote %s%s%s: %u nodes, %u skins, %u clips%s\n", out,
           gltf ? " and " : "", gltf && bin ? bin : "", source->node_count,
           source->skin_count, source->clip_count,
           report.axes_corrected ? " (axes turned into Y-up metres)" : "");
    free(bin);
    if (report.unnormalized_weights)
        printf("note: %u vertices' weights were divided by their sum\n",
               report.unnormalized_weights);

    if (vs_asset_load_file(out, NULL, &converted, &err) != VS_OK) {
        status = fail("reload", &err);
        goto done;
    }
    if (pose_at(source, t, &a) != 0 || pose_at(converted, t, &b) != 0)
        goto done;
    float worst = largest_difference(a, b);
    printf("t = %g: largest vertex difference %g over %u mesh instances\n",
           (double)t, (double)worst, source->instance_count);
    if (worst < 0.0f || worst > 1e-4f) {
        fprintf(stderr, "convert_collada: %s does not pose as %s\n", out,
                argv[1]);
        goto done;
    }
    status = 0;
done:
    vs_pose_free(a);
    vs_pose_free(b);
    vs_asset_free(converted);
    vs_asset_free(source);
    return status;
}
