/* SPDX-License-Identifier: MIT */
/* The same comparison as test_validate_invalid_suite.c on the copies in
 * tests/data/invalid, so it runs without ../shared. */
#include "validate/validate_suite.h"

int main(void)
{
    suite_stats st = {0};
    compare_tree(VS_TEST_DATA "/invalid", &st);
    print_stats("tests/data/invalid", &st);
    CHECK(st.files == 9);
    CHECK(st.expected >= 30);
    CHECK(st.matched == st.expected);
    return test_failures ? 1 : 0;
}
