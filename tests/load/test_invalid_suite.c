/* SPDX-License-Identifier: MIT */
/* The glTF-Validator suite (../shared/assets/invalid/gltf2/, see its
 * INDEX.md): every .gltf/.glb is loaded with vs_asset_load_file and judged
 * against its .report.json.
 *  - Nothing may crash (run this test under ASan+UBSan).
 *  - A rejection's message starts with "<file path>: ".
 *  - A file whose report has an error (severity 0) with a code in
 *    must_reject[] on a pointer that loading or posing reads must be
 *    rejected: loading it would make posing read out of bounds or give a
 *    silently wrong pose.
 *  - Any other file may be rejected or loaded; a loaded file is posed (rest,
 *    and each clip at its start and end: joint matrices and every primitive
 *    of every mesh instance through vs_pose_mesh_primitive) and every posed
 *    value must be finite, so the whole path runs under the sanitizers.
 *  - A file whose report has such an error with a code in must_repair[]
 *    is rejected or loaded with a warning.
 *  - Every file that loads loads again with vs_load_options.strict when,
 *    and only when, it loaded without warnings.
 *  - A file the validator finds valid (no errors) must load unless
 *    may_reject_valid[] names it with the reason.
 * One line per file says what happened. */
#include <cjson/cJSON.h>
#include <dirent.h>

#include "test.h"
#include "vskin/vskin.h"

#define SUITE VS_SHARED_ASSETS "/invalid/gltf2"

/* Error codes that vskin must reject (when on a pointer it reads). */
static const char *const must_reject[] = {
    /* Reads outside a buffer, view or array. */
    "BUFFER_VIEW_TOO_LONG", "ACCESSOR_TOO_LONG", "ACCESSOR_INDEX_OOB",
    "ACCESSOR_JOINTS_INDEX_OOB", "ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE",
    "BUFFER_BYTE_LENGTH_MISMATCH", "BUFFER_MISSING_GLB_DATA",
    "UNRESOLVED_REFERENCE", "INVALID_URI", "IO_ERROR",
    "ACCESSOR_SMALL_BYTESTRIDE", "BUFFER_VIEW_TOO_BIG_BYTE_STRIDE",
    /* Count mismatches that posing would index past. */
    "INVALID_IBM_ACCESSOR_COUNT", "MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT",
    "MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT",
    "MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT", "MESH_INVALID_WEIGHTS_COUNT",
    "NODE_WEIGHTS_INVALID", "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT",
    "ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS",
    "ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS",
    "MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH",
    /* Hierarchies that cannot be walked. */
    "NODE_LOOP", "NODE_PARENT_OVERRIDE",
    /* Data that would be decoded wrongly (silently wrong pose). */
    "ACCESSOR_NORMALIZED_INVALID",
    "ACCESSOR_INVALID_FLOAT", "ACCESSOR_INDEX_PRIMITIVE_RESTART",
    "ACCESSOR_ANIMATION_INPUT_NEGATIVE",
    "ACCESSOR_ANIMATION_INPUT_NON_INCREASING", "ACCESSOR_INVALID_IBM",
    "SKIN_IBM_INVALID_FORMAT", "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT",
    "MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT",
    "ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT",
    "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT",
    "ANIMATION_DUPLICATE_TARGETS",
    "BUFFER_VIEW_INVALID_BYTE_STRIDE", "VALUE_MULTIPLE_OF",
    "BUFFER_DATA_URI_MIME_TYPE_INVALID",
    /* Containers and versions vskin cannot read. */
    "INVALID_JSON", "UNKNOWN_ASSET_MAJOR_VERSION", "GLB_INVALID_MAGIC",
    "GLB_INVALID_VERSION", "GLB_LENGTH_TOO_SMALL", "GLB_LENGTH_MISMATCH",
    "GLB_CHUNK_TOO_BIG",
    "GLB_UNEXPECTED_END_OF_CHUNK_HEADER", "GLB_UNEXPECTED_END_OF_CHUNK_DATA",
    "GLB_UNEXPECTED_END_OF_HEADER", "GLB_UNEXPECTED_FIRST_CHUNK",
    "GLB_UNEXPECTED_BIN_CHUNK", "GLB_DUPLICATE_CHUNK", "GLB_EMPTY_CHUNK",
    NULL};

/* Error codes whose flaw leaves the pose known, so that vskin repairs it
 * (docs/formats.md): a load must reject the file or load it with a
 * warning, and a strict load must reject it. */
static const char *const must_repair[] = {
    "NODE_MATRIX_TRS", "ROTATION_NON_UNIT", "SCENE_NON_ROOT_NODE",
    "SKIN_SKELETON_INVALID", "ACCESSOR_OFFSET_ALIGNMENT",
    "ACCESSOR_TOTAL_OFFSET_ALIGNMENT", "ACCESSOR_MATRIX_ALIGNMENT",
    "GLB_CHUNK_LENGTH_UNALIGNED", "ACCESSOR_VECTOR3_NON_UNIT",
    "MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS",
    "MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY", NULL};

/* Files the validator finds valid that vskin may refuse, with the reason. */
static const struct {
    const char *file;
    const char *why;
} may_reject_valid[] = {
    {"asset/min_version_valid.gltf",
     "minVersion 2.1: a 2.0 loader must not load it (glTF 2.0 §3.2)"},
    {"animation/valid.gltf",
     "the input accessor has no bufferView, so its times are all 0 and not "
     "increasing; the validator does not check data it does not have"},
    {"skin/ignored_animated_transform.gltf",
     "same: the animation input accessor has no data, times all 0"},
    {"root/named_objects.gltf",
     "buffer 0 has no uri and there is no GLB BIN chunk: the mesh's vertex "
     "data does not exist"},
    {"root/unused_objects.gltf", "same: buffer 0 has no data to read"},
    {"accessor/unknown_type.gltf",
     "type \"NotaVEC3\" (a warning for the validator): no element size, so "
     "the accessor cannot be checked against its bufferView"},
    {"buffer/data_uri.glb",
     "a data: URI without ;base64 (glTF embeds base64 data)"},
    {"skin/valid.gltf",
     "its inverse bind matrices are all zero (accessor without data): a "
     "singular IBM cannot invert a bind pose; vskin refuses it at load "
     "(docs/robustness.md)"},
    {NULL, NULL}};

/* Files that may load although the report has a must_reject code, with the
 * reason the load is still correct. */
static const struct {
    const char *file;
    const char *why;
} may_load[] = {
    {"asset/1_0_version.gltf",
     "UNKNOWN_ASSET_MAJOR_VERSION: version 1.0 is loaded as glTF 1.0"},
    {"glb/bom.glb", "INVALID_JSON: only a UTF-8 BOM before valid JSON"},
    {"json/bom.gltf", "INVALID_JSON: only a UTF-8 BOM before valid JSON"},
    {"scene/unresolved_default_scene.gltf",
     "UNRESOLVED_REFERENCE: a file without scenes can only mean all of it "
     "by its \"scene\"; loaded with a warning"},
    {NULL, NULL}};

/* Report pointers of objects vskin never reads: an error there says
 * nothing about loading or posing. */
static const char *const unread_roots[] = {
    "/images", "/textures", "/samplers", "/cameras", "/materials", NULL};

static bool listed(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; ++i)
        if (strcmp(list[i], s) == 0) return true;
    return false;
}

static bool pointer_read(const char *pointer)
{
    for (int i = 0; unread_roots[i]; ++i) {
        size_t n = strlen(unread_roots[i]);
        if (strncmp(pointer, unread_roots[i], n) == 0 &&
            (pointer[n] == '\0' || pointer[n] == '/'))
            return false;
    }
    return true;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) == (size_t)n) {
        s[n] = '\0';
    } else {
        free(s);
        s = NULL;
    }
    fclose(f);
    return s;
}

/* ---- collecting the files */

typedef struct list {
    char **items;
    size_t count, cap;
} list;

static void list_add(list *l, const char *s)
{
    if (l->count == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->items = realloc(l->items, l->cap * sizeof *l->items);
        if (!l->items) abort();
    }
    l->items[l->count] = malloc(strlen(s) + 1);
    if (!l->items[l->count]) abort();
    strcpy(l->items[l->count++], s);
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

static void collect(const char *dir, list *out)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode))
            collect(path, out);
        else if (ends_with(path, ".gltf") || ends_with(path, ".glb"))
            list_add(out, path);
    }
    closedir(d);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- posing an accepted file */

static bool all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (!isfinite(v[i])) return false;
    return true;
}

static void pose_everything(const vs_pose *pose, const char *file,
                            const char *when)
{
    const vs_asset *a = vs_pose_asset(pose);
    vs_error err;
    for (uint32_t s = 0; s < a->skin_count; ++s) {
        size_t n = 16 * (size_t)a->skins[s].joint_count;
        float *m = malloc(n * sizeof *m);
        if (!m) abort();
        vs_result r = vs_pose_joint_matrices(pose, s, -1, m, &err);
        CHECK_MSG(r == VS_OK && all_finite(m, n), "%s (%s): skin %u: %s",
                  file, when, s, err.message);
        free(m);
    }
    for (uint32_t i = 0; i < a->instance_count; ++i) {
        uint32_t node = a->instances[i];
        const vs_mesh *mesh = &a->meshes[a->nodes[node].mesh];
        for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
            vs_posed_primitive out = {0};
            vs_result r = vs_pose_mesh_primitive(pose, node, p, NULL, &out,
                                                 &err);
            CHECK_MSG(r == VS_OK, "%s (%s): node %u primitive %u: %s", file,
                      when, node, p, err.message);
            if (r != VS_OK) continue;
            size_t nv = out.vertex_count;
            CHECK_MSG(all_finite(out.positions, 3 * nv) &&
                          (!out.normals || all_finite(out.normals, 3 * nv)),
                      "%s (%s): node %u primitive %u: non-finite output",
                      file, when, node, p);
            vs_posed_primitive_free(&out);
        }
    }
}

static void pose_asset(const vs_asset *asset, const char *file)
{
    vs_pose *pose = NULL;
    vs_error err;
    CHECK_MSG(vs_pose_create(asset, &pose, &err) == VS_OK, "%s: %s", file,
              err.message);
    if (!pose) return;
    vs_pose_update_world(pose);
    pose_everything(pose, file, "rest");
    for (uint32_t c = 0; c < asset->clip_count; ++c) {
        const float times[2] = {asset->clips[c].start, asset->clips[c].end};
        for (int k = 0; k < 2; ++k) {
            vs_pose_reset(pose);
            vs_result r = vs_pose_sample(pose, c, times[k], VS_TIME_CLAMP,
                                         &err);
            CHECK_MSG(r == VS_OK, "%s: clip %u: %s", file, c, err.message);
            vs_pose_update_world(pose);
            pose_everything(pose, file, k ? "clip end" : "clip start");
        }
    }
    vs_pose_free(pose);
}

/* A strict load refuses exactly the files that load with warnings, with
 * the first warning's object in its message. */
static void check_strict(const char *path, const char *rel,
                         const vs_asset *asset)
{
    vs_load_options strict = {.strict = true};
    vs_asset *again = NULL;
    vs_error err = {0};
    vs_result r = vs_asset_load_file(path, &strict, &again, &err);
    if (asset->warning_count == 0) {
        CHECK_MSG(r == VS_OK, "%s: loads without warnings but a strict "
                  "load refuses it: %s", rel, err.message);
    } else {
        CHECK_MSG(r == VS_ERROR_INVALID && strstr(err.message, "strict") &&
                      strstr(err.message, asset->warnings[0].object),
                  "%s: loads with the warning \"%s: %s\" but a strict load "
                  "gives %s: %s",
                  rel, asset->warnings[0].object, asset->warnings[0].message,
                  vs_result_string(r), err.message);
        for (uint32_t i = 0; i < asset->warning_count; ++i)
            printf("       warning %s: %s\n", asset->warnings[i].object,
                   asset->warnings[i].message);
    }
    vs_asset_free(again);
}

/* ---- one file */

/* Outcomes: [validator errors?][rejected?], and mandatory rejections. */
static int outcome[2][2], mandatory_rejected;

static void check_file(const char *path)
{
    const char *rel = path + strlen(SUITE) + 1;
    char report_path[1100];
    snprintf(report_path, sizeof report_path, "%s.report.json", path);
    char *text = read_text(report_path);
    cJSON *report = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECK_MSG(report != NULL, "%s: no readable report", rel);
    if (!report) return;
    const cJSON *issues = cJSON_GetObjectItemCaseSensitive(report, "issues");
    const cJSON *messages = cJSON_GetObjectItemCaseSensitive(issues, "messages");
    const cJSON *num = cJSON_GetObjectItemCaseSensitive(issues, "numErrors");
    int errors = cJSON_IsNumber(num) ? num->valueint : 0;
    const char *mandatory = NULL; /* first code that requires rejection */
    const char *repair = NULL;    /* first code that requires a repair */
    const cJSON *m;
    cJSON_ArrayForEach(m, messages)
    {
        const cJSON *sev = cJSON_GetObjectItemCaseSensitive(m, "severity");
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(m, "code");
        const cJSON *ptr = cJSON_GetObjectItemCaseSensitive(m, "pointer");
        if (!cJSON_IsNumber(sev) || sev->valueint != 0 ||
            !cJSON_IsString(code))
            continue;
        /* Errors without a pointer concern the whole file (GLB, JSON). */
        bool read = !cJSON_IsString(ptr) || pointer_read(ptr->valuestring);
        if (read && !mandatory && listed(must_reject, code->valuestring))
            mandatory = code->valuestring;
        if (read && !repair && listed(must_repair, code->valuestring))
            repair = code->valuestring;
    }

    vs_asset *asset = NULL;
    vs_error err = {0};
    vs_result r = vs_asset_load_file(path, NULL, &asset, &err);
    ++outcome[errors > 0][r != VS_OK];
    if (r != VS_OK) {
        mandatory_rejected += mandatory != NULL;
        printf("reject %-55s errors %d%s%s | %s\n", rel, errors,
               mandatory ? ", must: " : "", mandatory ? mandatory : "",
               err.message);
        size_t n = strlen(path);
        CHECK_MSG(strncmp(err.message, path, n) == 0 &&
                      strncmp(err.message + n, ": ", 2) == 0,
                  "%s: message does not start with the path: %s", rel,
                  err.message);
        CHECK_MSG(asset == NULL, "%s: asset set on failure", rel);
        bool excused = false;
        for (int i = 0; may_reject_valid[i].file; ++i)
            excused |= strcmp(may_reject_valid[i].file, rel) == 0;
        CHECK_MSG(errors > 0 || excused,
                  "%s: the validator finds no error but vskin rejects it",
                  rel);
    } else {
        const char *why = NULL;
        for (int i = 0; may_load[i].file; ++i)
            if (strcmp(may_load[i].file, rel) == 0) why = may_load[i].why;
        printf("load   %-55s errors %d%s%s\n", rel, errors,
               why ? ", allowed: " : "", why ? why : "");
        CHECK_MSG(!mandatory || why, "%s: loaded although the report has %s",
                  rel, mandatory);
        CHECK_MSG(!repair || asset->warning_count > 0,
                  "%s: loaded without a warning although the report has %s",
                  rel, repair);
        check_strict(path, rel, asset);
        pose_asset(asset, rel);
        vs_asset_free(asset);
    }
    cJSON_Delete(report);
}

static void invalid_suite(void)
{
    list files = {0};
    collect(SUITE, &files);
    qsort(files.items, files.count, sizeof *files.items, by_name);
    /* The suite has 266 cases; far fewer means the folder is broken. */
    CHECK_MSG(files.count >= 260, "only %zu files", files.count);
    for (size_t i = 0; i < files.count; ++i) {
        check_file(files.items[i]);
        free(files.items[i]);
    }
    free(files.items);
    printf("%zu files: %d rejected, %d loaded\n"
           "  with validator errors: %d rejected (%d of them mandatory), %d "
           "loaded\n"
           "  without validator errors: %d loaded, %d rejected (excused)\n",
           files.count, outcome[0][1] + outcome[1][1],
           outcome[0][0] + outcome[1][0], outcome[1][1], mandatory_rejected,
           outcome[1][0], outcome[0][0], outcome[0][1]);
}

int main(void)
{
    require_shared_assets();
    RUN(invalid_suite);
    return test_summary();
}
