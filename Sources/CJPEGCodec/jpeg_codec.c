// libjpeg reports a fatal error by calling error_exit, which must not
// return: the library's state is unusable after it. The only way out is
// longjmp back to the caller, and Swift cannot call setjmp (it returns
// twice, which Swift's code generation does not allow). So decoding and
// encoding run here, in C, each behind a setjmp that turns libjpeg's
// errors into a return code and a message.
#include "jpeg_codec.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf escape;
    char *message;
} codec_error;

static void fail(j_common_ptr cinfo) {
    codec_error *error = (codec_error *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, error->message);
    longjmp(error->escape, 1);
}

// Warnings are ignored, except those for data that ends early (the file,
// or a Huffman scan running into a marker): libjpeg would fill the rest of
// the picture with gray and carry on.
static void warn(j_common_ptr cinfo, int level) {
    if (level < 0 && (cinfo->err->msg_code == JWRN_JPEG_EOF || cinfo->err->msg_code == JWRN_HIT_MARKER)) {
        fail(cinfo);
    }
}

static void set_up_errors(codec_error *error, char *message) {
    jpeg_std_error(&error->base);
    error->base.error_exit = fail;
    error->base.emit_message = warn;
    error->message = message;
    message[0] = 0;
}

int jpeg_codec_read_header(const unsigned char *data, size_t size, jpeg_codec_info *info) {
    struct jpeg_decompress_struct cinfo;
    codec_error error;
    set_up_errors(&error, info->message);
    cinfo.err = &error.base;
    if (setjmp(error.escape)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    info->width = (int)cinfo.image_width;
    info->height = (int)cinfo.image_height;
    info->arithmetic = cinfo.arith_code ? 1 : 0;
    // jpeg_read_header stops after the first scan's header: what follows is
    // its data, unless it is a marker (0xFF then neither a stuffed zero nor
    // a restart marker) or nothing.
    const unsigned char *next = cinfo.src->next_input_byte;
    size_t left = cinfo.src->bytes_in_buffer;
    info->empty_scan = left < 2 || (next[0] == 0xFF && next[1] != 0x00 && (next[1] < 0xD0 || next[1] > 0xD7));
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

int jpeg_codec_decode(const unsigned char *data, size_t size, unsigned char *rgb, jpeg_codec_info *info) {
    struct jpeg_decompress_struct cinfo;
    codec_error error;
    set_up_errors(&error, info->message);
    cinfo.err = &error.base;
    if (setjmp(error.escape)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    if ((int)cinfo.image_width != info->width || (int)cinfo.image_height != info->height) {
        snprintf(info->message, sizeof info->message, "the header changed between reads");
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    cinfo.out_color_space = JCS_RGB;
    jpeg_start_decompress(&cinfo);
    size_t row_bytes = (size_t)cinfo.output_width * 3;
    // The arithmetic decoder reads zeros once its data runs into a marker,
    // and says nothing: a scan whose data ends more than two rows of blocks
    // before the picture does (it reads a little ahead) is cut short.
    unsigned int slack = 2 * (unsigned int)cinfo.max_v_samp_factor * DCTSIZE;
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = rgb + (size_t)cinfo.output_scanline * row_bytes;
        jpeg_read_scanlines(&cinfo, &row, 1);
        int marker = cinfo.unread_marker;
        if (cinfo.arith_code && !cinfo.progressive_mode && marker != 0 && (marker < 0xD0 || marker > 0xD7)
            && cinfo.output_scanline + slack < cinfo.output_height) {
            snprintf(info->message, sizeof info->message, "the JPEG's scan data ends at row %u of %u",
                     cinfo.output_scanline, cinfo.output_height);
            jpeg_destroy_decompress(&cinfo);
            return -1;
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

int jpeg_codec_encode(const unsigned char *rgb, int width, int height, int quality,
                      unsigned char **out, unsigned long *out_size, char message[200]) {
    struct jpeg_compress_struct cinfo;
    codec_error error;
    set_up_errors(&error, message);
    cinfo.err = &error.base;
    *out = NULL;
    *out_size = 0;
    if (setjmp(error.escape)) {
        jpeg_destroy_compress(&cinfo);
        free(*out);
        *out = NULL;
        return -1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, out, out_size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    size_t row_bytes = (size_t)width * 3;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + (size_t)cinfo.next_scanline * row_bytes);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    return 0;
}

void jpeg_codec_free(unsigned char *buffer) {
    free(buffer);
}
