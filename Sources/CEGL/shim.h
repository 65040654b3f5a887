// Headers of the system's EGL (libegl-dev), OpenGL ES 3 (libgles-dev) and GBM (libgbm-dev).
#define EGL_NO_X11 1
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <gbm.h>
