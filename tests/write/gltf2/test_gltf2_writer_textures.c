/* SPDX-License-Identifier: MIT */
/* The glTF 2.0 writer keeps what vskin's material model holds: base colour
 * factor and texture (image bytes as they were, texture coordinate set,
 * sampler, KHR_texture_transform), alpha mode and cutoff, double sidedness,
 * and the primitives' COLOR_0 (clamped to [0, 1], counted), in .gltf +
 * .bin, embedded .gltf and .glb; glTF 1.0's and COLLADA's diffuse textures
 * come out textured; an image that cannot be written is left out, counted
 * in the report, and the rest is written. */
#include "write/gltf2/gltf2_textured.h"
#include "write/gltf2/gltf2_writer.h"

/* Writes src to path and loads it back (NULL on error). */
static vs_asset *write_and_load(const vs_asset *src, const char *path,
                                bool embed, gltf2_write_report *rep)
{
    gltf2_write_options opts = {.embed = embed};
    vs_error e;
    vs_result r = gltf2_write_file(src, path, &opts, rep, &e);
    CHECK_MSG(r == VS_OK, "%s", e.message);
    vs_asset *out = NULL;
    if (r == VS_OK) {
        r = vs_asset_load_file(path, NULL, &out, &e);
        CHECK_MSG(r == VS_OK, "%s: %s", path, e.message);
    }
    return out;
}

static void textures_and_colours_survive_a_round_trip(void)
{
    vs_asset *src = textured_load(textured_doc, "textured.gltf");
    CHECK(src != NULL);
    if (!src) return;
    /* The source is what the comparisons below rely on. */
    CHECK(src->materials[0].base_color_texture.texcoord == 1 &&
          src->materials[0].base_color_texture.has_transform &&
          src->materials[0].base_color_texture.sampler.wrap_s == 33648);
    CHECK(src->meshes[0].primitives[0].colors &&
          src->meshes[0].primitives[0].base_color_texcoords !=
              src->meshes[0].primitives[0].texcoords);
    static const char *paths[] = {VS_TEST_TMP "/writer_textured.gltf",
                                  VS_TEST_TMP "/writer_textured.glb",
                                  VS_TEST_TMP "/writer_textured_embed.gltf"};
    for (int k = 0; k < 3; ++k) {
        gltf2_write_report rep;
        vs_asset *out = write_and_load(src, paths[k], k == 2, &rep);
        if (!out) continue;
        printf("%s\n", paths[k]);
        CHECK(rep.dropped_images == 0);
        CHECK(out->material_count == src->material_count);
        for (uint32_t m = 0; m < src->material_count; ++m)
            same_material(src, out, m);
        /* One image and one texture per distinct image and sampler; the
         * images are embedded, whatever the source's URIs. */
        CHECK(out->image_count == 2 && !out->images[0].uri &&
              strcmp(out->images[0].name, "checker") == 0 &&
              strcmp(out->images[1].mime_type, "image/png") == 0);
        same_primitives(src, out);
        vs_asset_free(out);
    }
    vs_asset_free(src);
}

static void collada_diffuse_textures_come_out_textured(void)
{
    vs_asset *src = textured_collada();
    CHECK(src != NULL);
    if (!src) return;
    gltf2_write_report rep;
    vs_asset *out = write_and_load(src, VS_TEST_TMP "/writer_textured_dae.glb",
                                   false, &rep);
    if (out) {
        /* sub/other name.jpg is not there: left out, and said so. */
        CHECK(rep.dropped_images == 1);
        CHECK(out->image_count == 1 && out->material_count == 3);
        same_material(src, out, 0);
        CHECK(out->materials[1].base_color_texture.image == -1 &&
              out->materials[1].double_sided);
        same_primitives(src, out);
        CHECK(out->meshes[0].primitives[0].base_color_texcoords != NULL);
    }
    vs_asset_free(out);
    vs_asset_free(src);
}

static void gltf1_diffuse_textures_come_out_textured(void)
{
    vs_asset *src = textured_load(gltf1_textured_doc, "textured1.gltf");
    CHECK(src != NULL);
    if (!src) return;
    gltf2_write_report rep;
    vs_asset *out =
        write_and_load(src, VS_TEST_TMP "/writer_textured_1.gltf", false, &rep);
    if (out) {
        CHECK(rep.dropped_images == 0);
        CHECK(out->material_count == 2 && out->image_count == 1);
        same_material(src, out, 0);
        same_material(src, out, 1);
    }
    vs_asset_free(out);
    vs_asset_free(src);
}

static void unwritable_images_are_reported_and_the_rest_written(void)
{
    vs_asset *src = textured_load(unwritable_images_doc, "unwritable.gltf");
    CHECK(src != NULL);
    if (!src) return;
    gltf2_write_report rep;
    vs_asset *out =
        write_and_load(src, VS_TEST_TMP "/writer_unwritable.gltf", false, &rep);
    if (out) {
        CHECK(rep.dropped_images == 3);
        CHECK(out->image_count == 1 && out->material_count == 4);
        for (uint32_t m = 0; m < 3; ++m) {
            const vs_material *o = &out->materials[m];
            CHECK(o->base_color_texture.image == -1);
            CHECK(memcmp(o->base_color, src->materials[m].base_color,
                         sizeof o->base_color) == 0);
        }
        same_material(src, out, 3);
        CHECK(out->mesh_count == 1 && out->meshes[0].primitive_count == 3);
    }
    vs_asset_free(out);
    vs_asset_free(src);
}

static void colours_outside_the_range_are_clamped_and_counted(void)
{
    vs_asset *src = textured_colours_outside();
    CHECK(src != NULL);
    if (!src) return;
    CHECK(src->meshes[0].primitives[0].colors[0] == -1.0f);
    gltf2_write_report rep;
    vs_asset *out =
        write_and_load(src, VS_TEST_TMP "/writer_colours.glb", false, &rep);
    if (out) {
        CHECK(rep.clamped_colors == 3);
        const vs_primitive *p = &out->meshes[0].primitives[0];
        const float *s = src->meshes[0].primitives[0].colors;
        for (uint32_t k = 0; p->colors && k < p->vertex_count * 4; ++k)
            CHECK(p->colors[k] == (s[k] < 0 ? 0 : s[k] > 1 ? 1 : s[k]));
    }
    vs_asset_free(out);
    vs_asset_free(src);
}

int main(void)
{
    RUN(textures_and_colours_survive_a_round_trip);
    RUN(collada_diffuse_textures_come_out_textured);
    RUN(gltf1_diffuse_textures_come_out_textured);
    RUN(unwritable_images_are_reported_and_the_rest_written);
    RUN(colours_outside_the_range_are_clamped_and_counted);
    return test_summary();
}
