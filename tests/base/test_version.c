/* SPDX-License-Identifier: MIT */
/* vs_version() is the header's version, which is the CMake project's. */
#include "test.h"
#include "vskin/vskin.h"

static void version_matches_header_and_project(void)
{
    const char *got = vs_version();
    CHECK(got != NULL);
    const char *v = got ? got : "(null)";
    CHECK_MSG(strcmp(v, VS_VERSION_STRING) == 0, "%s vs %s", v,
              VS_VERSION_STRING);
    CHECK_MSG(strcmp(v, VS_PROJECT_VERSION) == 0, "%s vs %s", v,
              VS_PROJECT_VERSION);
    char parts[32];
    snprintf(parts, sizeof parts, "%d.%d.%d", VS_VERSION_MAJOR,
             VS_VERSION_MINOR, VS_VERSION_PATCH);
    CHECK_MSG(strcmp(parts, VS_VERSION_STRING) == 0, "%s vs %s", parts,
              VS_VERSION_STRING);
}

int main(void)
{
    RUN(version_matches_header_and_project);
    return test_summary();
}
