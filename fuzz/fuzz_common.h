/* SPDX-License-Identifier: MIT */
/* Shared by the libFuzzer harnesses: one load of the fuzzer's bytes with
 * limits small enough that a legitimate allocation can never reach
 * libFuzzer's -rss_limit_mb (a limit error is a clean result, an RSS kill is
 * a finding). base_dir is NULL, so no external file is ever read. */
#ifndef VS_FUZZ_COMMON_H
#define VS_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vskin/vskin.h"

static inline vs_load_options fuzz_load_options(void)
{
    vs_load_options options;
    memset(&options, 0, sizeof options);
    options.limits.max_file_size = 16u << 20;
    options.limits.max_buffer_size = 64u << 20;
    options.limits.max_total_memory = 256u << 20;
    options.limits.max_nodes = 100000;
    return options;
}

/* A failed load must say why: an empty message is a bug too. */
static inline vs_asset *fuzz_load(const uint8_t *data, size_t size)
{
    vs_load_options options = fuzz_load_options();
    vs_asset *asset = NULL;
    vs_error error;
    vs_result r = vs_asset_load_memory(data, size, "fuzz", &options, &asset,
                                       &error);
    if (r != VS_OK) {
        if (asset || error.code != r || error.message[0] == '\0') {
            fprintf(stderr, "load failed (%d) without a proper error\n", r);
            abort();
        }
        return NULL;
    }
    if (!asset) abort();
    return asset;
}

#endif
