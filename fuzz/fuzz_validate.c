/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: vs_validate_file on any bytes (glTF JSON, GLB, glTF
 * 1.0, COLLADA: it detects the format). Its raw pass reads the JSON and
 * buffers itself, apart from the loader, so it needs its own fuzzing. A
 * report is the normal result; an error must say why; the report must be
 * consistent (counts match the issues, every issue has a code). */
#include "fuzz_common.h"
#include "fuzz_file_common.h"
#include "vskin/vskin_tools.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[512];
    fuzz_temp_path(path, sizeof path, "validate.in");
    fuzz_write_input(path, data, size);
    vs_validate_options options;
    memset(&options, 0, sizeof options);
    options.load = fuzz_load_options();
    options.max_issues = 1000;
    vs_validation_report *report = NULL;
    vs_error error;
    vs_result r = vs_validate_file(path, &options, &report, &error);
    if (r != VS_OK) {
        if (report || error.message[0] == '\0') {
            fprintf(stderr, "validate failed (%d) without a proper error\n",
                    r);
            abort();
        }
        return 0;
    }
    uint32_t counts[4] = {0, 0, 0, 0};
    for (uint32_t i = 0; i < report->issue_count; ++i) {
        const vs_validation_issue *is = &report->issues[i];
        if (!is->code || !is->code[0] || !is->message || !is->pointer ||
            (unsigned)is->severity > 3) {
            fprintf(stderr, "issue %u is incomplete\n", i);
            abort();
        }
        counts[is->severity]++;
    }
    if (memcmp(counts, report->counts, sizeof counts) != 0) {
        fprintf(stderr, "report counts do not match its issues\n");
        abort();
    }
    vs_validation_report_free(report);
    return 0;
}
