/* SPDX-License-Identifier: MIT */
/* Wavefront OBJ: `o` per mesh instance, `v`/`vn` per vertex, `f` per
 * triangle, `l`/`p` for line and point primitives. OBJ indices are 1-based
 * and count every `v` (and separately every `vn`) written before them in the
 * file, so they run on across objects and primitives. */
#include "write/mesh_writers.h"
#include "write/object_stream.h"
#include "write/text_escape.h"
#include "write/write_file.h"

/* OBJ's index of the element's vertex ("v" and, with normals, "v//vn"). */
static void put_ref(FILE *f, const vs_posed_primitive *posed, uint32_t vertex,
                    uint64_t v_base, uint64_t vn_base)
{
    if (posed->normals)
        fprintf(f, " %llu//%llu", (unsigned long long)(v_base + vertex + 1),
                (unsigned long long)(vn_base + vertex + 1));
    else
        fprintf(f, " %llu", (unsigned long long)(v_base + vertex + 1));
}

static void write_elements(FILE *f, const vs_primitive *prim,
                           const vs_posed_primitive *posed, uint64_t v_base,
                           uint64_t vn_base)
{
    uint32_t n = primitive_element_count(prim);
    uint32_t triangles = primitive_triangle_count(prim);
    for (uint32_t t = 0; t < triangles; ++t) {
        uint32_t tri[3];
        primitive_triangle(prim, t, tri);
        fputc('f', f);
        for (int k = 0; k < 3; ++k)
            put_ref(f, posed, tri[k], v_base, vn_base);
        fputc('\n', f);
    }
    switch (prim->mode) {
    case VS_MODE_POINTS:
        for (uint32_t i = 0; i < n; ++i)
            fprintf(
                f, "p %llu\n",
                (unsigned long long)(v_base + primitive_element(prim, i) + 1));
        break;
    case VS_MODE_LINES:
        for (uint32_t i = 0; i + 1 < n; i += 2)
            fprintf(
                f, "l %llu %llu\n",
                (unsigned long long)(v_base + primitive_element(prim, i) + 1),
                (unsigned long long)(v_base + primitive_element(prim, i + 1) +
                                     1));
        break;
    case VS_MODE_LINE_STRIP:
    case VS_MODE_LINE_LOOP:
        if (n < 2) break;
        fputc('l', f);
        for (uint32_t i = 0; i < n; ++i)
            fprintf(
                f, " %llu",
                (unsigned long long)(v_base + primitive_element(prim, i) + 1));
        /* A loop closes back to its first vertex (glTF 2.0 §3.7.2.1). */
        if (prim->mode == VS_MODE_LINE_LOOP)
            fprintf(
                f, " %llu",
                (unsigned long long)(v_base + primitive_element(prim, 0) + 1));
        fputc('\n', f);
        break;
    default:
        break;
    }
}

vs_result obj_write_objects(const char *path, const posed_scene *scene,
                            object_stream *objects, vs_error *error)
{
    vs_result r = object_stream_check(objects, error);
    if (r != VS_OK) return r;
    out_file out;
    r = out_file_open(&out, path, &scene->allocator, error);
    if (r != VS_OK) return r;
    FILE *f = out.f;
    fputs("# ", f);
    put_scene_label(f, scene);
    uint64_t v_base = 0, vn_base = 0;
    for (uint32_t o = 0; o < objects->count; ++o) {
        const posed_object *obj;
        r = object_stream_pose(objects, o, &obj, error);
        if (r != VS_OK) {
            out_file_discard(&out);
            return r;
        }
        fputs("o ", f);
        text_put_escaped(f, obj->name);
        fputc('\n', f);
        for (uint32_t p = 0; p < obj->primitive_count; ++p) {
            const vs_posed_primitive *posed = &obj->posed[p];
            const float *v = posed->positions;
            for (uint32_t i = 0; i < posed->vertex_count; ++i)
                fprintf(f, "v %.9g %.9g %.9g\n", (double)v[3 * i],
                        (double)v[3 * i + 1], (double)v[3 * i + 2]);
            const float *n = posed->normals;
            for (uint32_t i = 0; n && i < posed->vertex_count; ++i)
                fprintf(f, "vn %.9g %.9g %.9g\n", (double)n[3 * i],
                        (double)n[3 * i + 1], (double)n[3 * i + 2]);
            write_elements(f, &obj->primitives[p], posed, v_base, vn_base);
            v_base += posed->vertex_count;
            if (n) vn_base += posed->vertex_count;
        }
    }
    return out_file_commit(&out, error);
}

vs_result obj_write(const char *path, const posed_scene *scene, vs_error *error)
{
    object_stream objects;
    object_stream_of_scene(&objects, scene);
    return obj_write_objects(path, scene, &objects, error);
}
