/* SPDX-License-Identifier: MIT */
/* `vskin pose --method linear|dq`: the option reaches the skinning job (a
 * bent SimpleSkin poses differently), leaves SimpleSkin's first frame alone
 * (its joints are unrotated at t = 0, so both methods agree), linear is the
 * default, and bad values are refused. */
#include "test.h"
#include "tools/cli_run.h"

static char *pose_summary(const char *args)
{
    cli_result r = cli_run(args);
    CHECK_MSG(r.status == 0, "%s: exit %d: %s", args, r.status, r.err);
    free(r.err);
    return r.out;
}

static void method_changes_bent_pose_only(void)
{
    char *lin = pose_summary("pose --time 1 --method linear");
    char *dq = pose_summary("pose --time 1 --method dq");
    char *def = pose_summary("pose --time 1");
    char *dq_long = pose_summary("pose --time 1 --method dual-quaternion");
    char *rest_lin = pose_summary("pose --time 0 --method linear");
    char *rest_dq = pose_summary("pose --time 0 --method dq");
    CHECK(strcmp(lin, def) == 0);
    CHECK(strcmp(dq, dq_long) == 0);
    CHECK_MSG(strcmp(lin, dq) != 0, "linear and dq agree on a bent pose: %s",
              lin);
    CHECK_MSG(strcmp(rest_lin, rest_dq) == 0, "rest pose differs:\n%s\n%s",
              rest_lin, rest_dq);
    free(lin);
    free(dq);
    free(def);
    free(dq_long);
    free(rest_lin);
    free(rest_dq);
}

static void bad_method_is_refused(void)
{
    const char *bad[] = {"pose --method", "pose --method quaternion",
                         "pose --method DQ"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        cli_result r = cli_run(bad[i]);
        CHECK_MSG(r.status == 2, "%s: exit %d", bad[i], r.status);
        CHECK_MSG(strstr(r.err, "--method") != NULL, "%s: %s", bad[i], r.err);
        cli_result_free(&r);
    }
}

int main(void)
{
    RUN(method_changes_bent_pose_only);
    RUN(bad_method_is_refused);
    return test_summary();
}
