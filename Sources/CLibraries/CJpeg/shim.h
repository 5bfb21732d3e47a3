// libjpeg (libjpeg-turbo on Debian) for the Rendering module's image loader.
//
// libjpeg reports a fatal error by calling error_exit, which must not
// return: the only way out is longjmp, and Swift cannot setjmp. So the whole
// decode happens here in C, between one setjmp and its longjmp, and Swift
// sees a plain function that returns a status and a malloc'd buffer.
#include <stdio.h>      // jpeglib.h uses FILE and size_t without including them
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <jerror.h>

// Results of kp_jpeg_decode_gray.
#define KP_JPEG_OK 0
#define KP_JPEG_DAMAGED 1    // not decodable; message holds libjpeg's reason
#define KP_JPEG_TRUNCATED 2  // the data ends before the image does
#define KP_JPEG_TOO_LARGE 3  // over the caller's limits; width and height are set
#define KP_JPEG_NO_MEMORY 4

struct kp_jpeg_error {
    struct jpeg_error_mgr pub;   // first, so libjpeg's pointer is also ours
    jmp_buf jump;
    int truncated;
};

static inline void kp_jpeg_error_exit(j_common_ptr cinfo) {
    longjmp(((struct kp_jpeg_error *)cinfo->err)->jump, 1);
}

// libjpeg only warns when the data runs out, and pads the rest of the image
// with grey; a logo with a grey bottom half is a wrong receipt, so running
// out is an error here. Other warnings and trace messages are dropped
// instead of going to stderr.
static inline void kp_jpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    int code = cinfo->err->msg_code;
    if (msg_level < 0 && (code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER)) {
        ((struct kp_jpeg_error *)cinfo->err)->truncated = 1;
        longjmp(((struct kp_jpeg_error *)cinfo->err)->jump, 1);
    }
}

// Decodes the JPEG in data[0..<size] to 8-bit luminance (0 black, 255 white),
// one byte per pixel, rows without padding. On KP_JPEG_OK *out is a malloc'd
// buffer of *width * *height bytes that the caller frees; on any other
// result *out is NULL and message holds libjpeg's text. Images wider or
// taller than max_side, or with more than max_pixels pixels, are refused
// after the header is read, before any pixel memory is allocated.
// CMYK and YCCK JPEGs (print-shop exports) are converted here, since
// libjpeg has no CMYK-to-grey conversion.
static inline int kp_jpeg_decode_gray(const unsigned char *data, unsigned long size,
                                      unsigned long max_side, unsigned long max_pixels,
                                      unsigned char **out, int *width, int *height,
                                      char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    struct kp_jpeg_error err;
    // Written after setjmp and read after longjmp: volatile, or the
    // optimiser may hand the error path a stale copy.
    unsigned char *volatile pixels = NULL;
    unsigned char *volatile cmyk_row = NULL;

    *out = NULL; *width = 0; *height = 0;
    if (message_size > 0) message[0] = '\0';

    // Zeroed so jpeg_destroy_decompress is safe even if creation fails.
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = kp_jpeg_error_exit;
    err.pub.emit_message = kp_jpeg_emit_message;
    err.truncated = 0;
    if (setjmp(err.jump)) {
        char text[JMSG_LENGTH_MAX];
        err.pub.format_message((j_common_ptr)&cinfo, text);
        if (message_size > 0) snprintf(message, message_size, "%s", text);
        int result = err.truncated ? KP_JPEG_TRUNCATED
                   : err.pub.msg_code == JERR_OUT_OF_MEMORY ? KP_JPEG_NO_MEMORY : KP_JPEG_DAMAGED;
        jpeg_destroy_decompress(&cinfo);
        free(pixels);
        free(cmyk_row);
        return result;
    }

    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, size);
    jpeg_read_header(&cinfo, TRUE);
    *width = (int)cinfo.image_width;
    *height = (int)cinfo.image_height;
    unsigned long w = cinfo.image_width, h = cinfo.image_height;
    if (w > max_side || h > max_side || (unsigned long long)w * h > max_pixels) {
        jpeg_destroy_decompress(&cinfo);
        return KP_JPEG_TOO_LARGE;
    }

    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    // Adobe's writers (and Pillow) store CMYK inverted: 255 = no ink.
    int inverted = cinfo.saw_Adobe_marker;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_GRAYSCALE;
    jpeg_start_decompress(&cinfo);

    pixels = malloc(w * h > 0 ? w * h : 1);
    if (cmyk) cmyk_row = malloc(w * 4);
    if (pixels == NULL || (cmyk && cmyk_row == NULL)) {
        snprintf(message, message_size, "out of memory for %lux%lu pixels", w, h);
        jpeg_destroy_decompress(&cinfo);
        free(pixels);
        free(cmyk_row);
        return KP_JPEG_NO_MEMORY;
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        unsigned char *row = pixels + (size_t)cinfo.output_scanline * w;
        JSAMPROW target = cmyk ? cmyk_row : row;
        if (jpeg_read_scanlines(&cinfo, &target, 1) != 1) break;
        if (!cmyk) continue;
        for (unsigned long x = 0; x < w; x++) {
            // Each ink removes its share of the light; K removes from all three.
            unsigned c = cmyk_row[4 * x], m = cmyk_row[4 * x + 1];
            unsigned y = cmyk_row[4 * x + 2], k = cmyk_row[4 * x + 3];
            if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
            unsigned r = c * k / 255, g = m * k / 255, b = y * k / 255;
            row[x] = (unsigned char)((77 * r + 150 * g + 29 * b + 128) >> 8);
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(cmyk_row);
    *out = pixels;
    return KP_JPEG_OK;
}
