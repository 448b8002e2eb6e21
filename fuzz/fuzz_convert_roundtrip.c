/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: whatever vskin loads, it converts to glTF 2.0 (GLB),
 * and whatever it writes, it loads again. A load of the input may fail
 * (with a message); a conversion may fail only for a stated reason; the
 * reload of a written file must never fail, and keeps every node. */
#include "fuzz_common.h"
#include "fuzz_file_common.h"
#include "vskin/vskin_tools.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vs_asset *asset = fuzz_load(data, size);
    if (!asset) return 0;
    char path[512];
    fuzz_temp_path(path, sizeof path, "roundtrip.glb");
    vs_error error;
    vs_gltf_write_report written;
    memset(&written, 0, sizeof written);
    vs_result r = vs_write_gltf(asset, path, NULL, &written, &error);
    if (r != VS_OK) {
        if (error.message[0] == '\0') {
            fprintf(stderr, "convert failed (%d) without a message\n", r);
            abort();
        }
        vs_asset_free(asset);
        return 0;
    }
    vs_load_options options = fuzz_load_options();
    vs_asset *again = NULL;
    r = vs_asset_load_file(path, &options, &again, &error);
    if (r != VS_OK) {
        fprintf(stderr, "vskin refuses what it wrote: %s\n", error.message);
        abort();
    }
    /* Every node is written, plus a stand-in per repeated joint (empty
     * clips and unused objects may be left out: glTF 2.0 has no place for
     * them). */
    if (again->node_count < asset->node_count) {
        fprintf(stderr, "reload has %u nodes; the asset had %u\n",
                again->node_count, asset->node_count);
        abort();
    }
    vs_asset_free(again);
    vs_asset_free(asset);
    return 0;
}
