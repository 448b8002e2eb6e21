/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the renderer's texture decoding (PNG through
 * libpng, JPEG through libjpeg-turbo), without a GL context: any bytes
 * either decode to a picture within the limits, whose every byte is
 * readable, or fail with a message; never a crash, a leak or an
 * allocation past the limits. */
#include <stdlib.h>

#include "render/image_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *rgba = NULL;
    uint32_t w = 0, h = 0;
    vs_error e = {VS_OK, ""};
    /* Limits small enough that a legitimate picture stays far below
     * libFuzzer's -rss_limit_mb, also as ASan keeps freed blocks in its
     * quarantine: many pictures of a few megabytes each would fill it past
     * the limit without any leak. The code paths are those of any size. */
    vs_result r = image_decode_rgba(data, size, NULL, 512u * 512u, 1024, &w,
                                    &h, &rgba, &e);
    if (r != VS_OK) {
        if (rgba || !e.message[0]) abort();
        return 0;
    }
    if (!rgba || w == 0 || h == 0 || w > 1024 || h > 1024 ||
        (uint64_t)w * h > 512u * 512u)
        abort();
    /* Every byte is read, so ASan and MSan see any that were not written. */
    unsigned sum = 0;
    for (size_t i = 0; i < (size_t)w * h * 4; ++i)
        sum += rgba[i];
    free(rgba);
    volatile unsigned sink = sum;
    (void)sink;
    return 0;
}
