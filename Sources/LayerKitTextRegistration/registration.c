// The load-time hook described in include/LayerKitTextRegistration.h.
#include "LayerKitTextRegistration.h"

__attribute__((constructor)) static void layerkit_text_register_at_load(void) { layerkit_text_register(); }
