/* SPDX-License-Identifier: MIT */
/* The round trip of fuzz_convert_roundtrip over every fuzzer regression
 * file: a file that loads is converted to GLB; the conversion may fail
 * with a message, and when it succeeds vskin loads the result. */
#include <dirent.h>

#include "test.h"
#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"

#define REGRESSIONS VS_TEST_DATA "/regressions"

static void round_trip(const char *name, const char *path)
{
    vs_asset *asset = NULL, *again = NULL;
    vs_error error;
    if (vs_asset_load_file(path, NULL, &asset, &error) != VS_OK) return;
    const char *out = VS_TEST_TMP "/regression_roundtrip.glb";
    vs_result r = vs_write_gltf(asset, out, NULL, NULL, &error);
    if (r != VS_OK) {
        CHECK_MSG(error.message[0] != '\0', "%s: convert failed silently",
                  name);
        printf("  %s: not converted: %s\n", name, error.message);
    } else {
        r = vs_asset_load_file(out, NULL, &again, &error);
        CHECK_MSG(r == VS_OK, "%s: vskin refuses what it wrote: %s", name,
                  error.message);
        printf("  %s: converted and reloaded\n", name);
    }
    vs_asset_free(again);
    vs_asset_free(asset);
    remove(out);
}

static void every_regression_file_round_trips(void)
{
    DIR *dir = opendir(REGRESSIONS);
    CHECK(dir != NULL);
    if (!dir) return;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        const char *name = entry->d_name;
        if (name[0] == '.' || strcmp(name, "README.md") == 0) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", REGRESSIONS, name);
        round_trip(name, path);
    }
    closedir(dir);
}

int main(void)
{
    RUN(every_regression_file_round_trips);
    return test_summary();
}
