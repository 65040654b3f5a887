// Headers of the system's text stack: fontconfig (libfontconfig-dev), FreeType (libfreetype-dev),
// libraqm (libraqm-dev: bidirectional layout through FriBiDi, shaping through HarfBuzz) and
// libunibreak (libunibreak-dev: Unicode line-break opportunities). LayerKitText uses them.
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_TRUETYPE_TABLES_H
#include <raqm.h>
#include <linebreak.h>

// FreeType's error codes and load flags are macros Swift imports unevenly; these are the ones
// LayerKitText uses, as plain constants.
enum {
  LK_FT_LOAD_NO_SCALE = FT_LOAD_NO_SCALE,
  LK_FT_LOAD_NO_HINTING = FT_LOAD_NO_HINTING,
  LK_FT_LOAD_NO_BITMAP = FT_LOAD_NO_BITMAP,
  LK_FT_LOAD_COLOR = FT_LOAD_COLOR,
  LK_FT_FACE_FLAG_SCALABLE = FT_FACE_FLAG_SCALABLE,
  LK_FT_FACE_FLAG_COLOR = FT_FACE_FLAG_COLOR,
};
