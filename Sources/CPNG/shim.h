// Headers of the system's libpng (libpng-dev).
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

// LayerKitMedia reads PNG through libpng's simplified png_image API, which reports errors by
// return value. One case cannot use it: libpng 1.6.51 and later (and distribution backports of
// the CVE-2025-65018 fix, such as Debian 12's 1.6.39-2+deb12u4) return wrong pixels when the
// simplified API scales an Adam7-interlaced 16-bit image to 8 bits (libpng issue #853:
// png_image_read_direct_scaled combines each pass into a stale row buffer). For those files the
// helper below uses libpng's classic API, whose errors arrive by longjmp: setjmp must live in C,
// and the jump never crosses a Swift frame.

typedef struct {
  const unsigned char *data;
  size_t size;
  size_t offset;
  char *message;
  size_t message_size;
} lk_png_source;

static inline void lk_png_on_error(png_structp png, png_const_charp text) {
  lk_png_source *src = (lk_png_source *)png_get_error_ptr(png);
  if (src->message_size > 0) {
    strncpy(src->message, text ? text : "unknown error", src->message_size - 1);
    src->message[src->message_size - 1] = 0;
  }
  png_longjmp(png, 1);
}

static inline void lk_png_on_warning(png_structp png, png_const_charp text) {
  (void)png;
  (void)text;
}

static inline void lk_png_on_read(png_structp png, png_bytep out, size_t count) {
  lk_png_source *src = (lk_png_source *)png_get_io_ptr(png);
  if (count > src->size - src->offset) png_error(png, "read beyond end of data");
  memcpy(out, src->data + src->offset, count);
  src->offset += count;
}

/// Decodes a whole PNG into `out` as straight (non-premultiplied) RGBA8, values as stored: no
/// gamma change; 16-bit samples scaled by png_set_scale_16 (round(v * 255 / 65535)); palettes,
/// low bit depths and tRNS expanded; grey copied to R, G and B; alpha 255 added where missing.
/// `width` and `height` are the size the caller already validated and allocated for
/// (`out` holds width * height * 4 bytes); a file declaring another size is an error.
/// Returns 1 on success, 0 on failure with a message in `message`.
static inline int lk_png_read_rgba8(const void *data, size_t size, unsigned char *out,
                                    png_uint_32 width, png_uint_32 height, char *message,
                                    size_t message_size) {
  lk_png_source src = {(const unsigned char *)data, size, 0, message, message_size};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, lk_png_on_error,
                                           lk_png_on_warning);
  if (png == NULL) {
    if (message_size > 0) strncpy(message, "out of memory", message_size - 1);
    return 0;
  }
  png_infop info = png_create_info_struct(png);
  if (info == NULL) {
    png_destroy_read_struct(&png, NULL, NULL);
    if (message_size > 0) strncpy(message, "out of memory", message_size - 1);
    return 0;
  }
  // `png` and `info` are not changed after this point, so they need not be volatile.
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
  }
  png_set_read_fn(png, &src, lk_png_on_read);
  png_read_info(png, info);
  if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height)
    png_error(png, "image size differs from the header read before");
  png_set_expand(png);
  png_set_scale_16(png);
  png_set_gray_to_rgb(png);
  png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
  int passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != (size_t)width * 4)
    png_error(png, "unexpected row size after transformations");
  for (int pass = 0; pass < passes; pass++)
    for (png_uint_32 y = 0; y < height; y++)
      png_read_row(png, out + (size_t)y * width * 4, NULL);
  png_read_end(png, NULL);
  png_destroy_read_struct(&png, &info, NULL);
  return 1;
}

// Writing. The simplified API (png_image_write_to_memory) cannot set the zlib level or the row
// filters; frame sequences want speed over size, so the helper below writes with the classic API
// to a growing malloc'd buffer. As above, libpng reports errors by longjmp, so setjmp lives here.

// PNG_ALL_FILTERS is a macro expression Swift does not import.
enum { LK_PNG_ALL_FILTERS = PNG_ALL_FILTERS };

typedef struct {
  unsigned char *data;  // malloc'd; the caller frees it with lk_png_free_output
  size_t size;
  size_t capacity;
  int out_of_memory;
  char *message;
  size_t message_size;
} lk_png_output;

static inline void lk_png_on_write_error(png_structp png, png_const_charp text) {
  lk_png_output *out = (lk_png_output *)png_get_error_ptr(png);
  if (out->message_size > 0) {
    strncpy(out->message, text ? text : "unknown error", out->message_size - 1);
    out->message[out->message_size - 1] = 0;
  }
  png_longjmp(png, 1);
}

static inline void lk_png_on_write(png_structp png, png_bytep data, size_t count) {
  lk_png_output *out = (lk_png_output *)png_get_io_ptr(png);
  if (count > out->capacity - out->size) {
    size_t capacity = out->capacity < 65536 ? 65536 : out->capacity;
    while (count > capacity - out->size) {
      if (capacity > ((size_t)-1) / 2) png_error(png, "output too large");
      capacity *= 2;
    }
    unsigned char *grown = (unsigned char *)realloc(out->data, capacity);
    if (grown == NULL) {
      out->out_of_memory = 1;
      png_error(png, "out of memory");
    }
    out->data = grown;
    out->capacity = capacity;
  }
  memcpy(out->data + out->size, data, count);
  out->size += count;
}

static inline void lk_png_on_flush(png_structp png) { (void)png; }

static inline void lk_png_free_output(lk_png_output *out) {
  free(out->data);
  out->data = NULL;
  out->size = 0;
  out->capacity = 0;
}

/// Encodes straight (non-premultiplied) RGBA8 pixels, rows top-down and tightly packed, as an
/// 8-bit RGBA PNG, non-interlaced, with an sRGB chunk (perceptual intent) like the simplified
/// API's output. `level` is zlib's compression level (0...9); `filters` is a mask of
/// PNG_FILTER_NONE / SUB / UP / AVG / PAETH for png_set_filter (one bit fixes the filter, several
/// let libpng choose per row, which costs a trial encoding of each). `initial_capacity` sizes the
/// first output allocation (0: libpng's first write decides).
/// Returns 1 with the file in `out->data` / `out->size` (free it with lk_png_free_output), or 0
/// with a message in `out->message` and nothing left allocated.
static inline int lk_png_write_rgba8(const unsigned char *pixels, png_uint_32 width,
                                     png_uint_32 height, int level, int filters,
                                     size_t initial_capacity, lk_png_output *out) {
  out->data = NULL;
  out->size = 0;
  out->capacity = 0;
  out->out_of_memory = 0;
  if (initial_capacity > 0) {
    out->data = (unsigned char *)malloc(initial_capacity);
    if (out->data == NULL) {
      if (out->message_size > 0) strncpy(out->message, "out of memory", out->message_size - 1);
      return 0;
    }
    out->capacity = initial_capacity;
  }
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, out, lk_png_on_write_error,
                                            lk_png_on_warning);
  if (png == NULL) {
    lk_png_free_output(out);
    if (out->message_size > 0) strncpy(out->message, "out of memory", out->message_size - 1);
    return 0;
  }
  png_infop info = png_create_info_struct(png);
  if (info == NULL) {
    png_destroy_write_struct(&png, NULL);
    lk_png_free_output(out);
    if (out->message_size > 0) strncpy(out->message, "out of memory", out->message_size - 1);
    return 0;
  }
  // `png`, `info`, `pixels` and `out` are not changed after this point, so they need not be
  // volatile; the buffer `out` points to is memory, not a register, so it is current after a
  // longjmp.
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    lk_png_free_output(out);
    return 0;
  }
  png_set_write_fn(png, out, lk_png_on_write, lk_png_on_flush);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
  png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
  png_set_compression_level(png, level);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
  // Fewer, larger IDAT chunks: fewer write callbacks and CRC restarts than the 8 KiB default.
  png_set_compression_buffer_size(png, 1 << 18);
  png_write_info(png, info);
  for (png_uint_32 y = 0; y < height; y++)
    png_write_row(png, (png_const_bytep)(pixels + (size_t)y * width * 4));
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  return 1;
}
