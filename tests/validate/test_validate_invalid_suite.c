/* SPDX-License-Identifier: MIT */
/* vskin validate against every case of the Khronos glTF-Validator suite in
 * ../shared/assets/invalid/gltf2 (skipped when ../shared is absent): each
 * expected skin, node, accessor and animation message must be reported
 * (validate_suite.h defines the scope and the matching). */
#include "validate/validate_suite.h"

int main(void)
{
    const char *dir = VS_SHARED_ASSETS "/invalid/gltf2";
    struct stat sb;
    if (stat(dir, &sb) != 0) {
        printf("skipped: %s is absent\n", dir);
        return 77;
    }
    suite_stats st = {0};
    compare_tree(dir, &st);
    print_stats("glTF-Validator suite", &st);
    /* The suite held 266 cases with 151 in-scope messages when written;
     * fewer would mean the walk missed files. */
    CHECK(st.files >= 266);
    CHECK(st.expected >= 151);
    return test_failures ? 1 : 0;
}
