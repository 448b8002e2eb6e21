/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: binary glTF (.glb, versions 1 and 2) through vs_asset_load_memory. The loader detects
 * the format from content, so this harness differs from its siblings by its
 * seed corpus and dictionary (scripts/fuzz.sh), which keep it on this path. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vs_asset_free(fuzz_load(data, size));
    return 0;
}
