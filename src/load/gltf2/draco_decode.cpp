/* SPDX-License-Identifier: MIT */
/* libdraco's mesh decoder behind draco_decode.h's C interface: decodes,
 * checks the counts against what the glTF declared, and converts each
 * requested attribute into the caller's array. No exception leaves it. */
#include "load/gltf2/draco_decode.h"

#include <cstdarg>
#include <cstdio>
#include <memory>
#include <new>

#include <draco/compression/decode.h>
#include <draco/mesh/mesh.h>

namespace {

int fail(char *why, size_t why_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(why, why_size, fmt, ap);
    va_end(ap);
    return 1;
}

/* Every point's value, converted by Draco's rules (normalized integers to
 * floats and back as the attribute says) into count * n values of T. */
template <typename T>
bool convert(const draco::Mesh &mesh, const draco::PointAttribute &attr,
             uint32_t n, void *out)
{
    T *dst = static_cast<T *>(out);
    for (uint32_t p = 0; p < mesh.num_points(); ++p) {
        draco::AttributeValueIndex v = attr.mapped_index(draco::PointIndex(p));
        /* The point-to-value map comes from the file: a value index past
         * the attribute's values would read outside its buffer. */
        if (v.value() >= attr.size()) return false;
        if (!attr.ConvertValue<T>(v, static_cast<int8_t>(n),
                                  dst + static_cast<size_t>(p) * n))
            return false;
    }
    return true;
}

bool convert_any(const draco::Mesh &mesh, const draco::PointAttribute &attr,
                 const draco_attribute_out &a)
{
    switch (a.component_type) {
    case 5120: return convert<int8_t>(mesh, attr, a.components, a.out);
    case 5121: return convert<uint8_t>(mesh, attr, a.components, a.out);
    case 5122: return convert<int16_t>(mesh, attr, a.components, a.out);
    case 5123: return convert<uint16_t>(mesh, attr, a.components, a.out);
    case 5125: return convert<uint32_t>(mesh, attr, a.components, a.out);
    case 5126: return convert<float>(mesh, attr, a.components, a.out);
    default: return false;
    }
}

int decode(const uint8_t *data, size_t size, uint32_t vertex_count,
           uint32_t index_count, uint32_t *indices,
           const draco_attribute_out *attributes, uint32_t attribute_count,
           char *why, size_t why_size)
{
    draco::DecoderBuffer buffer;
    buffer.Init(reinterpret_cast<const char *>(data), size);
    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
    if (!decoded.ok())
        return fail(why, why_size, "the Draco data does not decode (%s)",
                    decoded.status().error_msg());
    const std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();
    if (!mesh) return fail(why, why_size, "the Draco data holds no mesh");
    if (mesh->num_points() != vertex_count)
        return fail(why, why_size,
                    "the Draco mesh has %u vertices but the accessors %u",
                    static_cast<unsigned>(mesh->num_points()), vertex_count);
    if (index_count % 3 != 0 || mesh->num_faces() != index_count / 3)
        return fail(why, why_size,
                    "the Draco mesh has %u triangles but the indices accessor "
                    "%u indices",
                    static_cast<unsigned>(mesh->num_faces()), index_count);
    for (uint32_t f = 0; f < mesh->num_faces(); ++f) {
        const draco::Mesh::Face &face = mesh->face(draco::FaceIndex(f));
        for (int k = 0; k < 3; ++k) {
            if (face[k].value() >= vertex_count)
                return fail(why, why_size,
                            "Draco triangle %u names vertex %u of %u", f,
                            static_cast<unsigned>(face[k].value()),
                            vertex_count);
            indices[static_cast<size_t>(f) * 3 + k] = face[k].value();
        }
    }
    for (uint32_t i = 0; i < attribute_count; ++i) {
        const draco_attribute_out &a = attributes[i];
        const draco::PointAttribute *attr =
            mesh->GetAttributeByUniqueId(a.unique_id);
        if (!attr)
            return fail(why, why_size,
                        "the Draco mesh has no attribute with id %u",
                        a.unique_id);
        if (attr->num_components() != a.components)
            return fail(why, why_size,
                        "Draco attribute %u has %d components but its "
                        "accessor %u",
                        a.unique_id, static_cast<int>(attr->num_components()),
                        a.components);
        if (!convert_any(*mesh, *attr, a))
            return fail(why, why_size,
                        "Draco attribute %u does not convert to component "
                        "type %u",
                        a.unique_id, a.component_type);
    }
    return 0;
}

} // namespace

extern "C" int draco_decode_mesh(const uint8_t *data, size_t size,
                                 uint32_t vertex_count, uint32_t index_count,
                                 uint32_t *indices,
                                 const draco_attribute_out *attributes,
                                 uint32_t attribute_count, char *why,
                                 size_t why_size)
{
    /* A C caller cannot unwind a C++ exception: every one ends here. */
    try {
        return decode(data, size, vertex_count, index_count, indices,
                      attributes, attribute_count, why, why_size);
    } catch (const std::bad_alloc &) {
        return fail(why, why_size, "the Draco decoder ran out of memory");
    } catch (...) {
        return fail(why, why_size, "the Draco decoder failed");
    }
}
