// Writes PNG and JPEG files of every coding the image decoders must read,
// as seeds for the ImageDecoders fuzz target and files for the tests:
// PNG interlaced (Adam7) in RGBA, 16-bit RGB, palette and 1-bit gray;
// JPEG baseline with restart markers, progressive, arithmetic-coded
// (sequential and progressive). Built with the system's libpng and
// libjpeg (Fuzz/Seeds/make-image-seeds.sh).
//
//   make-image-seeds DIRECTORY
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>
#include <jpeglib.h>

enum { WIDTH = 61, HEIGHT = 37 };

static unsigned char sample(int x, int y, int channel) {
    return (unsigned char)((x * 4 + y * 7 + channel * 85 + (x * y) % 13) & 0xFF);
}

static int write_png(const char *directory, const char *name, int color_type, int bit_depth, int interlace) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", directory, name);
    FILE *file = fopen(path, "wb");
    if (!file) return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) { fclose(file); return -1; }
    png_init_io(png, file);
    png_set_IHDR(png, info, WIDTH, HEIGHT, bit_depth, color_type, interlace, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color palette[16];
        for (int i = 0; i < 16; i++) { palette[i].red = i * 16; palette[i].green = 255 - i * 16; palette[i].blue = i * 7; }
        png_set_PLTE(png, info, palette, 16);
        png_byte alpha[16];
        for (int i = 0; i < 16; i++) alpha[i] = (png_byte)(255 - i * 8);
        png_set_tRNS(png, info, alpha, 16, NULL);
    }
    png_write_info(png, info);
    int channels = color_type == PNG_COLOR_TYPE_RGBA ? 4 : color_type == PNG_COLOR_TYPE_RGB ? 3 : 1;
    size_t row_bytes = png_get_rowbytes(png, info);
    png_bytep *rows = malloc(sizeof(png_bytep) * HEIGHT);
    for (int y = 0; y < HEIGHT; y++) {
        rows[y] = calloc(1, row_bytes);
        for (int x = 0; x < WIDTH; x++) {
            for (int c = 0; c < channels; c++) {
                unsigned char v = sample(x, y, c);
                if (bit_depth == 16) { rows[y][(x * channels + c) * 2] = v; rows[y][(x * channels + c) * 2 + 1] = (unsigned char)(255 - v); }
                else if (bit_depth == 8) rows[y][x * channels + c] = v;
                else if (bit_depth == 4) rows[y][x / 2] |= (unsigned char)((v >> 4) << (x % 2 ? 0 : 4));
                else if (bit_depth == 1) rows[y][x / 8] |= (unsigned char)(((v >> 7) & 1) << (7 - x % 8));
            }
        }
    }
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    for (int y = 0; y < HEIGHT; y++) free(rows[y]);
    free(rows);
    fclose(file);
    return 0;
}

static int write_jpeg(const char *directory, const char *name, int progressive, int arithmetic, int restart, int gray) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", directory, name);
    FILE *file = fopen(path, "wb");
    if (!file) return -1;
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr error;
    cinfo.err = jpeg_std_error(&error);
    jpeg_create_compress(&cinfo);
    jpeg_stdio_dest(&cinfo, file);
    cinfo.image_width = WIDTH;
    cinfo.image_height = HEIGHT;
    cinfo.input_components = gray ? 1 : 3;
    cinfo.in_color_space = gray ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, 80, TRUE);
    if (progressive) jpeg_simple_progression(&cinfo);
    cinfo.arith_code = arithmetic ? TRUE : FALSE;
    cinfo.restart_interval = (unsigned int)restart;
    jpeg_start_compress(&cinfo, TRUE);
    unsigned char row[WIDTH * 3];
    while (cinfo.next_scanline < cinfo.image_height) {
        int y = (int)cinfo.next_scanline;
        for (int x = 0; x < WIDTH; x++)
            for (int c = 0; c < cinfo.input_components; c++) row[x * cinfo.input_components + c] = sample(x, y, c);
        JSAMPROW pointer = row;
        jpeg_write_scanlines(&cinfo, &pointer, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    fclose(file);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s DIRECTORY\n", argv[0]); return 2; }
    const char *d = argv[1];
    int failed = 0;
    failed |= write_png(d, "interlaced-rgba.png", PNG_COLOR_TYPE_RGBA, 8, PNG_INTERLACE_ADAM7);
    failed |= write_png(d, "interlaced-rgb16.png", PNG_COLOR_TYPE_RGB, 16, PNG_INTERLACE_ADAM7);
    failed |= write_png(d, "palette4-transparent.png", PNG_COLOR_TYPE_PALETTE, 4, PNG_INTERLACE_NONE);
    failed |= write_png(d, "gray1-interlaced.png", PNG_COLOR_TYPE_GRAY, 1, PNG_INTERLACE_ADAM7);
    failed |= write_jpeg(d, "restarts.jpg", 0, 0, 1, 0);
    failed |= write_jpeg(d, "progressive.jpg", 1, 0, 0, 0);
    failed |= write_jpeg(d, "arithmetic.jpg", 0, 1, 0, 0);
    failed |= write_jpeg(d, "arithmetic-progressive.jpg", 1, 1, 0, 0);
    failed |= write_jpeg(d, "arithmetic-restarts-gray.jpg", 0, 1, 2, 1);
    return failed ? 1 : 0;
}
