/* SPDX-License-Identifier: MIT */
/* Load warnings (vs_asset.warnings) and strict loads (vs_load_options.strict):
 * a flaw that leaves the pose known is repaired, listed with its object and
 * what vskin did, and the pose is the repaired one; a strict load refuses
 * the same file with the warning's text; the list is bounded; a warning
 * that cannot be stored fails the load cleanly. */
#include <string.h>

#include "counting_allocator.h"
#include "test.h"
#include "text_builder.h"
#include "vskin/vskin.h"

/* Node 0: a matrix (translation 1, 2, 3) and a translation the matrix
 * overrides. Node 1: a rotation of 180 degrees about Z, twice unit length. */
static const char flawed[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,"
    "\"scenes\":[{\"nodes\":[0,1]}],\"nodes\":["
    "{\"name\":\"both\",\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,1,2,3,1],"
    "\"translation\":[9,9,9]},"
    "{\"name\":\"long\",\"rotation\":[0,0,2,0]}]}";

static vs_result load(const char *json, const vs_load_options *options,
                      vs_asset **out, vs_error *err)
{
    return vs_asset_load_memory(json, strlen(json), "flawed.gltf", options,
                                out, err);
}

static void repairs_are_listed_and_posed(void)
{
    vs_asset *a = NULL;
    vs_error err = {0};
    CHECK_MSG(load(flawed, NULL, &a, &err) == VS_OK, "%s", err.message);
    if (!a) return;
    CHECK(a->warning_count == 2);
    if (a->warning_count == 2) {
        CHECK(strcmp(a->warnings[0].object, "nodes[0]") == 0);
        CHECK(strstr(a->warnings[0].message, "matrix is used") != NULL);
        CHECK(strcmp(a->warnings[1].object, "nodes[1].rotation") == 0);
        CHECK(strstr(a->warnings[1].message, "not unit length") != NULL);
        CHECK(strstr(a->warnings[1].message, "normalised") != NULL);
    }
    float m[16];
    vs_asset_rest_world(a, 0, m);
    CHECK_NEAR(m[12], 1.0f, 0.0f);
    CHECK_NEAR(m[13], 2.0f, 0.0f);
    CHECK_NEAR(m[14], 3.0f, 0.0f);
    /* The normalised rotation: a rotation, not a rotation and a scale. */
    vs_asset_rest_world(a, 1, m);
    CHECK_NEAR(m[0], -1.0f, 1e-6f);
    CHECK_NEAR(m[5], -1.0f, 1e-6f);
    CHECK_NEAR(m[10], 1.0f, 1e-6f);
    vs_asset_free(a);
}

static void strict_refuses_with_the_warning(void)
{
    vs_load_options strict = {.strict = true};
    vs_asset *a = NULL;
    vs_error err = {0};
    CHECK(load(flawed, &strict, &a, &err) == VS_ERROR_INVALID);
    CHECK(a == NULL);
    CHECK_MSG(strncmp(err.message, "flawed.gltf: nodes[0]: has both matrix",
                      38) == 0 &&
                  strstr(err.message, "strict") != NULL,
              "%s", err.message);
}

static void clean_file_has_no_warning(void)
{
    static const char clean[] =
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"rotation\":[0,0,1,0]}]}";
    vs_load_options strict = {.strict = true};
    vs_asset *a = NULL;
    vs_error err = {0};
    CHECK_MSG(load(clean, &strict, &a, &err) == VS_OK, "%s", err.message);
    CHECK(a && a->warning_count == 0 && a->warnings == NULL);
    vs_asset_free(a);
}

static void zero_quaternion_is_refused(void)
{
    static const char zero[] =
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"rotation\":[0,0,0,0]}]}";
    vs_asset *a = NULL;
    vs_error err = {0};
    CHECK(load(zero, NULL, &a, &err) == VS_ERROR_INVALID);
    CHECK_MSG(strstr(err.message, "nodes[0]: rotation: quaternion has no "
                                  "length") != NULL ||
                  strstr(err.message, "nodes[0].rotation: quaternion has no "
                                      "length") != NULL,
              "%s", err.message);
}

/* 1,500 flawed nodes: the first VS_MAX_WARNINGS - 1 are kept and the last
 * counts the rest. */
static void the_list_is_bounded(void)
{
    text t = {0};
    put(&t, "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[");
    for (int i = 0; i < 1500; ++i)
        put(&t, "%s{\"rotation\":[0,0,0,2]}", i ? "," : "");
    put(&t, "]}");
    vs_asset *a = NULL;
    vs_error err = {0};
    CHECK_MSG(load(t.s, NULL, &a, &err) == VS_OK, "%s", err.message);
    free(t.s);
    if (!a) return;
    CHECK(a->warning_count == VS_MAX_WARNINGS);
    if (a->warning_count == VS_MAX_WARNINGS) {
        const vs_warning *last = &a->warnings[VS_MAX_WARNINGS - 1];
        CHECK(strcmp(last->object, "") == 0);
        CHECK_MSG(strncmp(last->message, "501 more warnings were left out",
                          31) == 0,
                  "%s", last->message);
        CHECK(strcmp(a->warnings[VS_MAX_WARNINGS - 2].object,
                     "nodes[998].rotation") == 0);
    }
    vs_asset_free(a);
}

/* Every allocation of the flawed load refused in turn: a clean error, and
 * every block given back. */
static void warnings_survive_failed_allocations(void)
{
    for (size_t n = 1;; ++n) {
        counting c;
        vs_load_options o = {.allocator = counting_allocator(&c)};
        c.fail_at = n;
        vs_asset *a = NULL;
        vs_error err = {0};
        vs_result r = load(flawed, &o, &a, &err);
        if (r == VS_OK) {
            CHECK(a->warning_count == 2);
            vs_asset_free(a);
        } else {
            CHECK_MSG(r == VS_ERROR_OUT_OF_MEMORY, "n=%zu: %s", n,
                      err.message);
            CHECK(a == NULL);
        }
        CHECK_MSG(c.allocs == c.frees && c.foreign == 0, "n=%zu: leak", n);
        if (r == VS_OK) break;
        CHECK_MSG(n < 10000, "still failing at n=%zu", n);
        if (n >= 10000) break;
    }
}

int main(void)
{
    RUN(repairs_are_listed_and_posed);
    RUN(strict_refuses_with_the_warning);
    RUN(clean_file_has_no_warning);
    RUN(zero_quaternion_is_refused);
    RUN(the_list_is_bounded);
    RUN(warnings_survive_failed_allocations);
    return test_summary();
}
