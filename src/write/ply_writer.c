/* SPDX-License-Identifier: MIT */
/* ASCII PLY (Greg Turk's format, "format ascii 1.0"): the header declares
 * element counts up front, so faces are counted before anything is written.
 * PLY has one vertex list, so face indices are 0-based over all objects. */
#include "write/mesh_writers.h"
#include "write/object_stream.h"
#include "write/text_escape.h"
#include "write/write_file.h"

static void write_header(FILE *f, const posed_scene *scene,
                         object_stream *objects, bool normals,
                         uint64_t vertices, uint64_t faces)
{
    fputs("ply\nformat ascii 1.0\ncomment ", f);
    put_scene_label(f, scene);
    uint64_t first = 0;
    for (uint32_t o = 0; o < objects->count; ++o) {
        posed_object obj;
        object_stream_shape(objects, o, &obj);
        uint64_t count = 0;
        for (uint32_t p = 0; p < obj.primitive_count; ++p) {
            count += obj.primitives[p].vertex_count;
            if (primitive_triangle_count(&obj.primitives[p]) == 0 &&
                primitive_element_count(&obj.primitives[p]) > 0) {
                fputs("comment object ", f);
                text_put_escaped(f, obj.name);
                fprintf(f,
                        " primitive %u: points/lines skipped (PLY has no "
                        "such element)\n",
                        p);
            }
        }
        fputs("comment object ", f);
        text_put_escaped(f, obj.name);
        fprintf(f, " node %u: %llu vertices from %llu\n", obj.node,
                (unsigned long long)count, (unsigned long long)first);
        first += count;
    }
    if (!normals)
        fprintf(f, "comment no normals: not every primitive has them\n");
    fprintf(f,
            "element vertex %llu\nproperty float x\nproperty float y\n"
            "property float z\n",
            (unsigned long long)vertices);
    if (normals)
        fprintf(f, "property float nx\nproperty float ny\nproperty float nz\n");
    fprintf(f,
            "element face %llu\nproperty list uchar uint vertex_indices\n"
            "end_header\n",
            (unsigned long long)faces);
}

static void write_vertices(FILE *f, const posed_object *obj, bool normals)
{
    for (uint32_t p = 0; p < obj->primitive_count; ++p) {
        const vs_posed_primitive *posed = &obj->posed[p];
        for (uint32_t i = 0; i < posed->vertex_count; ++i) {
            const float *v = posed->positions + 3 * (size_t)i;
            fprintf(f, "%.9g %.9g %.9g", (double)v[0], (double)v[1],
                    (double)v[2]);
            if (normals) {
                const float *n = posed->normals + 3 * (size_t)i;
                fprintf(f, " %.9g %.9g %.9g", (double)n[0], (double)n[1],
                        (double)n[2]);
            }
            fputc('\n', f);
        }
    }
}

/* The faces need only the topology: the vertex counts place each
 * primitive's indices in the one vertex list. */
static void write_faces(FILE *f, object_stream *objects)
{
    uint64_t base = 0;
    for (uint32_t o = 0; o < objects->count; ++o) {
        posed_object obj;
        object_stream_shape(objects, o, &obj);
        for (uint32_t p = 0; p < obj.primitive_count; ++p) {
            const vs_primitive *prim = &obj.primitives[p];
            uint32_t triangles = primitive_triangle_count(prim);
            for (uint32_t t = 0; t < triangles; ++t) {
                uint32_t tri[3];
                primitive_triangle(prim, t, tri);
                fprintf(f, "3 %llu %llu %llu\n",
                        (unsigned long long)(base + tri[0]),
                        (unsigned long long)(base + tri[1]),
                        (unsigned long long)(base + tri[2]));
            }
            base += prim->vertex_count;
        }
    }
}

vs_result ply_write_objects(const char *path, const posed_scene *scene,
                            object_stream *objects, vs_error *error)
{
    vs_result r = object_stream_check(objects, error);
    if (r != VS_OK) return r;
    /* The header counts everything before any vertex is posed; the posed
     * vertices match the topology (object_stream_check, or
     * object_stream_pose for a pose), so the counts hold. */
    uint64_t vertices = 0, faces = 0;
    for (uint32_t o = 0; o < objects->count; ++o) {
        posed_object obj;
        object_stream_shape(objects, o, &obj);
        for (uint32_t p = 0; p < obj.primitive_count; ++p) {
            vertices += obj.primitives[p].vertex_count;
            faces += primitive_triangle_count(&obj.primitives[p]);
        }
    }
    /* Normals are a property of the whole vertex element: written only
     * when every primitive has them. */
    bool normals = object_stream_normals(objects);
    out_file out;
    r = out_file_open(&out, path, &scene->allocator, error);
    if (r != VS_OK) return r;
    FILE *f = out.f;
    write_header(f, scene, objects, normals, vertices, faces);
    for (uint32_t o = 0; o < objects->count; ++o) {
        const posed_object *obj;
        r = object_stream_pose(objects, o, &obj, error);
        if (r != VS_OK) {
            out_file_discard(&out);
            return r;
        }
        write_vertices(f, obj, normals);
    }
    write_faces(f, objects);
    return out_file_commit(&out, error);
}

vs_result ply_write(const char *path, const posed_scene *scene, vs_error *error)
{
    object_stream objects;
    object_stream_of_scene(&objects, scene);
    return ply_write_objects(path, scene, &objects, error);
}
