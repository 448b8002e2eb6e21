/* SPDX-License-Identifier: MIT */
/* vs_escape_text: names from files made safe for line-based text formats
 * and terminals. A name is the file author's data: a newline in it would
 * start a line of its own in OBJ or PLY (`v ...`, `mtllib ...`), and an
 * escape sequence would drive the reader's terminal. Every such byte is
 * written as \xHH; a backslash too, so that every backslash in the result
 * starts an escape and no result ends a line with OBJ's continuation mark.
 * Also the label line OBJ and PLY open with, which quotes such names. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "write/mesh_writers.h"
#include "write/text_escape.h"

#include "vskin/vskin_tools.h"

/* The length of the valid UTF-8 sequence at s that is neither a control
 * character (C1, U+0080..U+009F, which some terminals obey) nor an overlong
 * or surrogate form; 0 when the byte at s must be escaped. */
static size_t printable_sequence(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c >= 0x20 && c < 0x7f) return c == '\\' ? 0 : 1;
    size_t n;
    uint32_t cp, min;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2, cp = c & 0x1fu, min = 0xa0;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3, cp = c & 0x0fu, min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4, cp = c & 0x07u, min = 0x10000;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; ++i) {
        if ((s[i] & 0xc0u) != 0x80u) return 0; /* also stops at the NUL */
        cp = (cp << 6) | (s[i] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return n;
}

size_t vs_escape_text(char *out, size_t size, const char *text)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)(text ? text : "");
    size_t need = 0, written = 0;
    /* Whole pieces only: a truncated result never ends inside an escape or
     * a UTF-8 sequence. */
    bool room = out && size > 0;
    while (*s) {
        size_t n = printable_sequence(s);
        char piece[4];
        const char *from = (const char *)s;
        size_t len = n;
        if (n == 0) {
            piece[0] = '\\';
            piece[1] = 'x';
            piece[2] = hex[*s >> 4];
            piece[3] = hex[*s & 15];
            from = piece;
            len = 4;
            n = 1;
        }
        if (room && written + len < size) {
            memcpy(out + written, from, len);
            written += len;
        } else {
            room = false;
        }
        need += len;
        s += n;
    }
    if (out && size > 0) out[written] = '\0';
    return need;
}

void text_put_escaped(FILE *f, const char *text)
{
    const unsigned char *s = (const unsigned char *)(text ? text : "");
    while (*s) {
        char piece[5];
        size_t n = printable_sequence(s);
        if (n) {
            fwrite(s, 1, n, f);
            s += n;
        } else {
            /* One byte escaped: vs_escape_text's form, from one place. */
            char one[2] = {(char)*s, '\0'};
            vs_escape_text(piece, sizeof piece, one);
            fputs(piece, f);
            s += 1;
        }
    }
}

void put_scene_label(FILE *f, const posed_scene *scene)
{
    fprintf(f, "vskin %s: ", VS_VERSION_STRING);
    text_put_escaped(f, scene->source);
    if (scene->clip >= 0) {
        fprintf(f, ", clip %d \"", scene->clip);
        text_put_escaped(f, scene->clip_name);
        fprintf(f, "\", t = %.9g\n", (double)scene->time);
    } else {
        fprintf(f, ", rest pose\n");
    }
}
