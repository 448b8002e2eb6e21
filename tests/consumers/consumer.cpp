// SPDX-License-Identifier: MIT
// The public headers compile as C++ and link from a C++ program
// (scripts/test-consumers.sh).
#include <cstdio>
#include <cstring>
#include <vskin/vskin.h>
#include <vskin/vskin_render.h>

int main()
{
    std::size_t size = 0;
    const void *data = vs_default_asset_data(&size);
    vs_error err;
    vs_asset *asset = nullptr;
    if (vs_asset_load_memory(data, size, "SimpleSkin.gltf", nullptr, &asset,
                             &err) != VS_OK) {
        std::fprintf(stderr, "consumer++: %s\n", err.message);
        return 1;
    }
    std::printf("consumer++: vskin %s, %u nodes\n", vs_version(),
                asset->node_count);
    const bool ok = std::strcmp(vs_version(), VS_VERSION_STRING) == 0 &&
                    asset->node_count == 3;
    vs_asset_free(asset);
    return ok ? 0 : 1;
}
