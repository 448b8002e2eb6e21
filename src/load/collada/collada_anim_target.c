/* SPDX-License-Identifier: MIT */
/* <channel target> -> the transform element values it drives (COLLADA 1.4.1
 * "Address Syntax"): "nodeId/sid" for the whole element, "nodeId/sid.MEMBER"
 * for one member (X Y Z of translate/scale/rotate axis, ANGLE of rotate or
 * skew), "nodeId/sid(i)" for the i-th value as written and, for a matrix,
 * "nodeId/sid(i)(j)" for column i, row j (the order FCollada, assimp and
 * three.js read). The node is found by id, the element by its sid within
 * that node's transform stack. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "load/collada/collada_anim.h"

static uint32_t value_count(collada_xform_kind kind)
{
    switch (kind) {
    case COLLADA_XF_MATRIX:
        return 16;
    case COLLADA_XF_ROTATE:
        return 4;
    case COLLADA_XF_LOOKAT:
        return 9;
    case COLLADA_XF_SKEW:
        return 7;
    case COLLADA_XF_TRANSLATE:
    case COLLADA_XF_SCALE:
        return 3;
    }
    return 0;
}

/* Member name -> value index for this kind of element, or -1. */
static int member_index(collada_xform_kind kind, const char *m)
{
    if (kind == COLLADA_XF_ROTATE && strcasecmp(m, "ANGLE") == 0) return 3;
    if (kind == COLLADA_XF_SKEW && strcasecmp(m, "ANGLE") == 0) return 0;
    if (kind == COLLADA_XF_TRANSLATE || kind == COLLADA_XF_SCALE ||
        kind == COLLADA_XF_ROTATE) {
        static const char *const xyz[3] = {"X", "Y", "Z"};
        for (int i = 0; i < 3; ++i)
            if (strcasecmp(m, xyz[i]) == 0) return i;
    }
    return -1;
}

/* Parses "(digits)" at *s; returns false when malformed. */
static bool parse_index(const char **s, uint32_t *out)
{
    const char *p = *s;
    if (*p++ != '(' || !isdigit((unsigned char)*p)) return false;
    uint32_t v = 0;
    for (; isdigit((unsigned char)*p); ++p) {
        if (v > 1000) return false;
        v = v * 10 + (uint32_t)(*p - '0');
    }
    if (*p++ != ')') return false;
    *s = p;
    *out = v;
    return true;
}

static vs_result select_values(anim_ctx *ctx, const xmlNode *channel,
                               const collada_xform *x, const char *sel,
                               anim_channel *out)
{
    uint32_t total = value_count(x->kind);
    if (*sel == '\0') {
        out->first = 0;
        out->count = total;
        return VS_OK;
    }
    if (*sel == '.') {
        int i = member_index(x->kind, sel + 1);
        if (i < 0)
            return collada_fail(ctx->c, VS_ERROR_INVALID, channel, "target",
                                "member \"%s\" does not exist on this element",
                                sel + 1);
        out->first = (uint32_t)i;
        out->count = 1;
        return VS_OK;
    }
    uint32_t a, b;
    const char *p = sel;
    if (!parse_index(&p, &a))
        return collada_fail(ctx->c, VS_ERROR_INVALID, channel, "target",
                            "malformed selector \"%s\"", sel);
    uint32_t index = a;
    if (*p == '(') {
        if (x->kind != COLLADA_XF_MATRIX || !parse_index(&p, &b) || a > 3 ||
            b > 3)
            return collada_fail(ctx->c, VS_ERROR_INVALID, channel, "target",
                                "\"%s\": two indices select (column)(row) of a "
                                "matrix, each 0 to 3",
                                sel);
        index = b * 4 + a; /* values are kept row-major as written */
    }
    if (*p != '\0' || index >= total)
        return collada_fail(ctx->c, VS_ERROR_INVALID, channel, "target",
                            "\"%s\" is not an index below %u", sel, total);
    out->first = index;
    out->count = 1;
    return VS_OK;
}

vs_result anim_resolve_target(anim_ctx *ctx, const xmlNode *channel,
                              anim_channel *out, bool *skip)
{
    *skip = false;
    const char *t = collada_attr(channel, "target");
    if (!t)
        return collada_fail(ctx->c, VS_ERROR_INVALID, channel, NULL,
                            "the target attribute is missing");
    const char *slash = strchr(t, '/');
    if (!slash || slash == t)
        return collada_fail(ctx->c, VS_ERROR_INVALID, channel, "target",
                            "expected \"nodeId/sid\"");
    uint32_t first;
    size_t id_len = (size_t)(slash - t);
    uint32_t nodes = anim_find_nodes(ctx, t, id_len, &first);
    if (nodes == 0) {
        /* Exporters leave channels on cameras, lights and nodes no scene
         * holds: nothing vskin poses moves, so the channel is skipped. One
         * whose id names nothing at all is a flaw of the file. */
        *skip = true;
        char *id = collada_tmp(ctx->c, id_len + 1, 1, "channel target");
        if (!id) return COLLADA_ERR(ctx->c);
        memcpy(id, t, id_len);
        id[id_len] = '\0';
        if (collada_lookup(ctx->c, id)) return VS_OK;
        return collada_warn(ctx->c, channel, "target", "channel ignored",
                            "\"%s\" is the id of no element", id);
    }
    const char *sid = slash + 1;
    size_t sid_len = strcspn(sid, "./(");
    uint32_t node = ctx->node_ids[first].node;
    const collada_node_stack *st = &ctx->stacks[node];
    uint32_t x = 0;
    while (x < st->xform_count &&
           !(st->xforms[x].sid && strlen(st->xforms[x].sid) == sid_len &&
             strncmp(st->xforms[x].sid, sid, sid_len) == 0))
        ++x;
    /* Maya animates attributes that are no transform element
     * (blendParent1, visibility) on the node: they do not move it in
     * COLLADA's model, so the channel is ignored and the rest of the
     * animation kept, as three.js and assimp do. */
    if (sid_len == 0 || sid[sid_len] == '/' || x == st->xform_count) {
        *skip = true;
        return collada_warn(ctx->c, channel, "target", "channel ignored",
                            "\"%.120s\" is no transform element of node "
                            "\"%s\" (only the <node>'s own transform "
                            "elements are animated)",
                            sid, st->id);
    }
    out->element = channel;
    out->node = node;
    out->node_first = first;
    out->node_count = nodes;
    out->xform = x;
    return select_values(ctx, channel, &st->xforms[x], sid + sid_len, out);
}
