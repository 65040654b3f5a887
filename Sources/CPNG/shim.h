// Headers of the system's libpng (libpng-dev).
#include <png.h>
