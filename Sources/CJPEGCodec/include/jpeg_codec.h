#ifndef OPENUIKIT_JPEG_CODEC_H
#define OPENUIKIT_JPEG_CODEC_H

#include <stddef.h>

/// What a JPEG holds, and libjpeg's message when a call fails.
typedef struct {
    int width;
    int height;
    /// Whether the entropy coding is arithmetic rather than Huffman.
    int arithmetic;
    /// Whether the first scan has no entropy-coded data at all: a marker
    /// follows its header at once. libjpeg's arithmetic decoder would read
    /// zeros for the whole picture and call it a success.
    int empty_scan;
    char message[200];
} jpeg_codec_info;

/// Reads a JPEG's header. Returns 0, or -1 with `info->message` set.
int jpeg_codec_read_header(const unsigned char *data, size_t size, jpeg_codec_info *info);

/// Decodes a JPEG into `rgb` (width × height × 3 bytes, rows packed), as
/// RGB whatever its colour space (gray is expanded). A file that ends
/// early is an error, not a picture padded with gray. Returns 0, or -1
/// with `info->message` set.
int jpeg_codec_decode(const unsigned char *data, size_t size, unsigned char *rgb, jpeg_codec_info *info);

/// Encodes packed RGB rows at `quality` (0–100, baseline, 4:2:0). On
/// success returns 0 and a malloc'd buffer the caller frees with
/// jpeg_codec_free; else -1 with `message` set.
int jpeg_codec_encode(const unsigned char *rgb, int width, int height, int quality,
                      unsigned char **out, unsigned long *out_size, char message[200]);

void jpeg_codec_free(unsigned char *buffer);

#endif
