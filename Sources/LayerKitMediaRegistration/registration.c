// The load-time hook described in include/LayerKitMediaRegistration.h.
#include "LayerKitMediaRegistration.h"

__attribute__((constructor)) static void layerkit_media_register_at_load(void) { layerkit_media_register(); }
