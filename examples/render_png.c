/* SPDX-License-Identifier: MIT */
/*
 * render_png: draw the embedded SimpleSkin at one time of its clip with the
 * OpenGL ES renderer (skinning in the vertex shader, headless EGL: Mesa's
 * llvmpipe needs no GPU and no window) and save the picture as a PNG.
 *
 *   example_render_png [OUTPUT.png [TIME]]
 *
 * Defaults: simpleskin.png, 1 s. When no EGL display or context can be made
 * the program says why and exits 77, which CTest reports as "skipped".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vskin/vskin.h>
#include <vskin/vskin_render.h>

enum { WIDTH = 512, HEIGHT = 512, SKIP = 77 };

static int fail(const char *what, const vs_error *err)
{
    fprintf(stderr, "render_png: %s: %s (%s)\n", what, err->message,
            vs_result_string(err->code));
    return 1;
}

/* ---- a minimal PNG writer ------------------------------------------------
 * vskin hands back plain RGBA8 rows; saving them is the application's job.
 * This writer stores the pixels uncompressed (zlib "stored" blocks) so the
 * example needs nothing but the C library. A real program would use libpng,
 * stb_image_write or similar, which also compress. */

static uint32_t crc_table[256];

static void crc_init(void)
{
    for (uint32_t n = 0; n < 256; ++n) {
        uint32_t c = n;
        for (int k = 0; k < 8; ++k)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

static uint32_t crc_update(uint32_t crc, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return crc;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* One chunk: length, type, data, CRC of type + data. */
static bool write_chunk(FILE *f, const char type[4], const uint8_t *data,
                        size_t size)
{
    uint8_t head[8], tail[4];
    put_u32(head, (uint32_t)size);
    memcpy(head + 4, type, 4);
    uint32_t crc = crc_update(0xffffffffu, head + 4, 4);
    crc = crc_update(crc, data, size);
    put_u32(tail, crc ^ 0xffffffffu);
    return fwrite(head, 1, 8, f) == 8 &&
           (size == 0 || fwrite(data, 1, size, f) == size) &&
           fwrite(tail, 1, 4, f) == 4;
}

static bool write_png(const char *path, const uint8_t *rgba, uint32_t width,
                      uint32_t height)
{
    static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    uint8_t ihdr[13];
    put_u32(ihdr, width);
    put_u32(ihdr + 4, height);
    ihdr[8] = 8;  /* bits per channel */
    ihdr[9] = 6;  /* colour type: RGBA */
    ihdr[10] = 0; /* compression: deflate */
    ihdr[11] = 0; /* filtering: per-row filter byte */
    ihdr[12] = 0; /* no interlacing */

    /* Each row is a filter byte (0: none) and the row's pixels. */
    size_t row = 1 + (size_t)width * 4;
    size_t raw_size = row * height;
    size_t blocks = (raw_size + 65534) / 65535;
    size_t z_size = 2 + blocks * 5 + raw_size + 4;
    uint8_t *z = malloc(z_size);
    uint8_t *raw = malloc(raw_size);
    if (!z || !raw) {
        free(z);
        free(raw);
        return false;
    }
    for (uint32_t y = 0; y < height; ++y) {
        raw[y * row] = 0;
        memcpy(raw + y * row + 1, rgba + (size_t)y * width * 4,
               (size_t)width * 4);
    }

    /* zlib stream: header, stored deflate blocks, Adler-32 of the data. */
    uint8_t *o = z;
    *o++ = 0x78;
    *o++ = 0x01;
    for (size_t at = 0; at < raw_size; at += 65535) {
        size_t n = raw_size - at < 65535 ? raw_size - at : 65535;
        *o++ = at + n == raw_size ? 1 : 0; /* BFINAL, BTYPE = stored */
        *o++ = (uint8_t)n;
        *o++ = (uint8_t)(n >> 8);
        *o++ = (uint8_t)~n;
        *o++ = (uint8_t)(~n >> 8);
        memcpy(o, raw + at, n);
        o += n;
    }
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < raw_size; ++i) {
        a = (a + raw[i]) % 65521;
        b = (b + a) % 65521;
    }
    put_u32(o, (b << 16) | a);
    free(raw);

    crc_init();
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(signature, 1, 8, f) == 8 &&
              write_chunk(f, "IHDR", ihdr, sizeof ihdr) &&
              write_chunk(f, "IDAT", z, z_size) &&
              write_chunk(f, "IEND", NULL, 0);
    if (f && fclose(f) != 0) ok = false;
    free(z);
    return ok;
}

/* ---- rendering ----------------------------------------------------------- */

int main(int argc, char **argv)
{
    const char *out_path = argc > 1 ? argv[1] : "simpleskin.png";
    float time = 1.0f;
    if (argc > 2) {
        char *end;
        time = strtof(argv[2], &end);
        if (end == argv[2] || *end != '\0') {
            fprintf(stderr, "render_png: TIME \"%s\" is not a number\n",
                    argv[2]);
            return 2;
        }
    }

    vs_error err;
    vs_asset *asset;
    size_t size;
    const void *data = vs_default_asset_data(&size);
    if (vs_asset_load_memory(data, size, "SimpleSkin.gltf (embedded)", NULL,
                             &asset, &err) != VS_OK)
        return fail("load", &err);

    /* The renderer opens its own EGL display and context and uploads the
     * bind-pose meshes once; each frame then only sends joint matrices.
     * VS_ERROR_RENDER means no usable EGL/GLES here (the message names the
     * packages to install): a missing capability, not a bug, so skip. */
    vs_renderer *renderer;
    vs_result r = vs_renderer_create(asset, &renderer, &err);
    if (r != VS_OK) {
        fprintf(stderr, "render_png: cannot render here: %s\n", err.message);
        vs_asset_free(asset);
        return r == VS_ERROR_RENDER ? SKIP : 1;
    }
    printf("OpenGL ES renderer: %s\n", vs_renderer_gl_renderer(renderer));

    int status = 1;
    vs_pose *pose = NULL;
    uint8_t *rgba = NULL;
    if (vs_pose_create(asset, &pose, &err) != VS_OK) {
        fail("vs_pose_create", &err);
        goto done;
    }
    vs_pose_reset(pose);
    if (vs_pose_sample(pose, 0, time, VS_TIME_LOOP, &err) != VS_OK) {
        fail("vs_pose_sample", &err);
        goto done;
    }
    vs_pose_update_world(pose);

    /* Framing the whole clip rather than this one pose keeps the camera
     * still, so pictures at different times line up as animation frames. */
    vs_camera camera;
    if (vs_camera_frame_clip(asset, 0, 16, (float)WIDTH / (float)HEIGHT, false,
                             &camera, &err) != VS_OK) {
        fail("vs_camera_frame_clip", &err);
        goto done;
    }
    vs_render_desc desc = {
        .width = WIDTH,
        .height = HEIGHT,
        .view = VS_VIEW_OUTLINE, /* SimpleSkin has no normals to shade */
        .skeleton = true,        /* bones and joints drawn on top */
        .camera = &camera,
    };
    rgba = malloc((size_t)WIDTH * HEIGHT * 4);
    if (!rgba) {
        fprintf(stderr, "render_png: out of memory\n");
        goto done;
    }
    if (vs_render_pose(renderer, pose, &desc, rgba, &err) != VS_OK) {
        fail("vs_render_pose", &err);
        goto done;
    }

    /* A cheap sanity check: the default background is opaque white, so
     * anything else was drawn. */
    size_t drawn = 0;
    for (size_t i = 0; i < (size_t)WIDTH * HEIGHT; ++i) {
        const uint8_t *px = rgba + 4 * i;
        if (px[0] != 255 || px[1] != 255 || px[2] != 255) ++drawn;
    }
    if (drawn == 0) {
        fprintf(stderr, "render_png: the picture is empty\n");
        goto done;
    }
    if (!write_png(out_path, rgba, WIDTH, HEIGHT)) {
        perror(out_path);
        goto done;
    }
    printf("wrote %s (%dx%d, t = %g s, %zu pixels drawn)\n", out_path, WIDTH,
           HEIGHT, (double)time, drawn);
    status = 0;

done:
    free(rgba);
    vs_pose_free(pose);
    /* The renderer uses the asset's data: destroy it first. */
    vs_renderer_destroy(renderer);
    vs_asset_free(asset);
    return status;
}
