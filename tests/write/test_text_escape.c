/* SPDX-License-Identifier: MIT */
/* vs_escape_text: control characters, DEL, backslashes and bytes that are
 * not valid UTF-8 become \xHH; valid UTF-8 passes; truncation keeps whole
 * pieces and the return value is the whole length, as snprintf's. */
#include "test.h"
#include "vskin/vskin_tools.h"

static void check_escape(const char *in, const char *want)
{
    char out[128];
    size_t n = vs_escape_text(out, sizeof out, in);
    CHECK_MSG(strcmp(out, want) == 0, "'%s' gave '%s', want '%s'", in, out,
              want);
    CHECK(n == strlen(want));
}

static void escapes_what_drives_lines_and_terminals(void)
{
    check_escape("plain name", "plain name");
    check_escape("a\nb", "a\\x0ab");
    check_escape("\r\t\x1b[2J", "\\x0d\\x09\\x1b[2J");
    check_escape("del\x7f", "del\\x7f");
    check_escape("back\\slash\\", "back\\x5cslash\\x5c");
    check_escape(NULL, "");
}

static void keeps_utf8_and_escapes_the_rest(void)
{
    check_escape("Gr\xc3\xbc\xc3\x9f \xe2\x82\xac \xf0\x9f\x98\x80",
                 "Gr\xc3\xbc\xc3\x9f \xe2\x82\xac \xf0\x9f\x98\x80");
    /* C1 control CSI (U+009B), which some terminals obey. */
    check_escape("\xc2\x9b"
                 "2J",
                 "\\xc2\\x9b2J");
    /* Overlong, surrogate, truncated and stray bytes. */
    check_escape("\xc0\xaf", "\\xc0\\xaf");
    check_escape("\xed\xa0\x80", "\\xed\\xa0\\x80");
    check_escape("\xe2\x82", "\\xe2\\x82");
    check_escape("\x9b", "\\x9b");
}

static void truncates_on_whole_pieces(void)
{
    char out[6];
    /* "ab\x0a..." needs 2 + 4 + 1 = 7 bytes; only "ab" fits whole. */
    CHECK(vs_escape_text(out, sizeof out, "ab\nc") == 7);
    CHECK(strcmp(out, "ab") == 0);
    char euro[3];
    CHECK(vs_escape_text(euro, sizeof euro, "\xe2\x82\xac") == 3);
    CHECK(euro[0] == '\0');
    CHECK(vs_escape_text(NULL, 0, "a\nb") == 6);
}

int main(void)
{
    RUN(escapes_what_drives_lines_and_terminals);
    RUN(keeps_utf8_and_escapes_the_rest);
    RUN(truncates_on_whole_pieces);
    return test_summary();
}
