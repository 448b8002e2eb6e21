/* SPDX-License-Identifier: MIT */
/* A program that links the three libraries as a project outside vskin
 * would (scripts/test-consumers.sh): the runtime loads the embedded
 * SimpleSkin, the tools (vskin_tools.h) validate it, the renderer
 * (vskin_render.h) frames its clip. Like consumer.c it defines functions
 * whose names vskin uses inside: each library carries its own internal
 * helpers, and linked statically none may call these or clash with them. */
#include <stdio.h>
#include <stdlib.h>

#include <vskin/vskin.h>
#include <vskin/vskin_render.h>
#include <vskin/vskin_tools.h>

int set_error(int code);
int read_file(const char *path);
int xform_mul(void);

int set_error(int code)
{
    fprintf(stderr, "consumer_layers: vskin called set_error(%d)\n", code);
    abort();
}

int read_file(const char *path)
{
    fprintf(stderr, "consumer_layers: vskin called read_file(%s)\n", path);
    abort();
}

int xform_mul(void)
{
    fprintf(stderr, "consumer_layers: vskin called xform_mul\n");
    abort();
}

int main(void)
{
    size_t size = 0;
    const void *data = vs_default_asset_data(&size);
    vs_error err;
    vs_asset *asset = NULL;
    vs_validation_report *report = NULL;
    if (vs_asset_load_memory(data, size, "SimpleSkin.gltf", NULL, &asset,
                             &err) != VS_OK ||
        vs_validate_asset(asset, NULL, &report, &err) != VS_OK) {
        fprintf(stderr, "consumer_layers: %s\n", err.message);
        return 1;
    }
    const uint32_t errors = report->counts[VS_SEVERITY_ERROR];
    vs_validation_report_free(report);
    /* The renderer's camera needs no GPU: it frames the clip's bounds. */
    vs_camera camera;
    if (vs_camera_frame_clip(asset, 0, 8, 1.0f, false, &camera, &err) !=
        VS_OK) {
        fprintf(stderr, "consumer_layers: %s\n", err.message);
        return 1;
    }
    printf("consumer_layers: %u validation errors, camera at (%g, %g, %g)\n",
           errors, camera.eye[0], camera.eye[1], camera.eye[2]);
    vs_asset_free(asset);
    return errors == 0 ? 0 : 1;
}
