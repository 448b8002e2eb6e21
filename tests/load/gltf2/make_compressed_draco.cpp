/* SPDX-License-Identifier: MIT */
/* Writes tests/data/compressed/skinned_draco.gltf: the skinned strip
 * (skinned_strip.h) as one KHR_draco_mesh_compression mesh, positions,
 * normals, JOINTS_0 and WEIGHTS_0 as attributes without quantization and
 * the sequential method, which keep every value and the vertex order, so
 * that it poses exactly as skinned_plain.gltf. The joints and weights are
 * generic attributes, as glTF exporters store them. Usage:
 * make_compressed_draco OUTPUT_DIR */
#include <memory>
#include <string>

#include <draco/compression/encode.h>
#include <draco/mesh/mesh.h>

#include "load/gltf2/skinned_strip.h"

namespace {

int add(draco::Mesh &mesh, draco::GeometryAttribute::Type type, int n,
        draco::DataType dt, int size, const void *values)
{
    draco::GeometryAttribute ga;
    ga.Init(type, nullptr, static_cast<uint8_t>(n), dt, false, n * size, 0);
    int id = mesh.AddAttribute(ga, true, STRIP_VERTICES);
    draco::PointAttribute *att = mesh.attribute(id);
    for (int v = 0; v < STRIP_VERTICES; ++v)
        att->SetAttributeValue(
            draco::AttributeValueIndex(v),
            static_cast<const uint8_t *>(values) + v * n * size);
    return static_cast<int>(att->unique_id());
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
        return 2;
    }
    draco::Mesh mesh;
    mesh.set_num_points(STRIP_VERTICES);
    for (int f = 0; f < STRIP_INDICES / 3; ++f) {
        draco::Mesh::Face face;
        for (int k = 0; k < 3; ++k)
            face[k] = draco::PointIndex(strip_indices[3 * f + k]);
        mesh.AddFace(face);
    }
    int pos = add(mesh, draco::GeometryAttribute::POSITION, 3,
                  draco::DT_FLOAT32, 4, strip_positions);
    int nrm = add(mesh, draco::GeometryAttribute::GENERIC, 3,
                  draco::DT_FLOAT32, 4, strip_normals);
    int jnt = add(mesh, draco::GeometryAttribute::GENERIC, 4, draco::DT_UINT8,
                  1, strip_joints);
    int wgt = add(mesh, draco::GeometryAttribute::GENERIC, 4,
                  draco::DT_FLOAT32, 4, strip_weights);
    draco::Encoder encoder;
    encoder.SetEncodingMethod(draco::MESH_SEQUENTIAL_ENCODING);
    draco::EncoderBuffer out;
    const draco::Status st = encoder.EncodeMeshToBuffer(mesh, &out);
    if (!st.ok()) {
        std::fprintf(stderr, "%s: %s\n", argv[0], st.error_msg());
        return 1;
    }
    /* Buffer 0: the Draco data, then the inverse bind matrices. */
    std::string bin(out.data(), out.size());
    while (bin.size() % 4) bin.push_back('\0');
    const size_t ibm_at = bin.size();
    bin.append(reinterpret_cast<const char *>(strip_ibms), sizeof strip_ibms);
    char *uri = strip_data_uri(reinterpret_cast<const uint8_t *>(bin.data()),
                               bin.size());
    std::string data = "\"buffers\":[{\"byteLength\":" +
                       std::to_string(bin.size()) + ",\"uri\":\"" + uri +
                       "\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":" +
                       std::to_string(out.size()) +
                       "},{\"buffer\":0,\"byteOffset\":" +
                       std::to_string(ibm_at) + ",\"byteLength\":" +
                       std::to_string(sizeof strip_ibms) + "}],\"accessors\":[";
    std::free(uri);
    char accessors[2048];
    static const int views[6] = {-1, -1, -1, -1, -1, 1};
    if (strip_accessors(accessors, sizeof accessors, views, 0) != 0) return 1;
    data += accessors;
    data += "]";
    const std::string ext =
        "{\"KHR_draco_mesh_compression\":{\"bufferView\":0,\"attributes\":{"
        "\"POSITION\":" + std::to_string(pos) + ",\"NORMAL\":" +
        std::to_string(nrm) + ",\"JOINTS_0\":" + std::to_string(jnt) +
        ",\"WEIGHTS_0\":" + std::to_string(wgt) + "}}}";
    char *text = strip_gltf(data.c_str(), ext.c_str(),
                            "\"KHR_draco_mesh_compression\"",
                            "\"KHR_draco_mesh_compression\"", "");
    std::string path = std::string(argv[1]) + "/skinned_draco.gltf";
    const int r = strip_write(path.c_str(), text);
    std::free(text);
    if (r != 0) {
        std::fprintf(stderr, "%s: cannot write %s\n", argv[0], path.c_str());
        return 1;
    }
    return 0;
}
