// Headers of the system's libjpeg-turbo TurboJPEG API (libturbojpeg0-dev): it reports errors by
// return value, so a corrupt file never needs setjmp/longjmp across Swift frames.
#include <turbojpeg.h>
