// LayerKitMediaRegistration: one load-time hook, so UIImage decodes with no set-up call.
//
// When a program links LayerKitMedia (the LayerKit product links it), the constructor in
// registration.c runs as the program loads and calls layerkit_media_register(), which
// LayerKitMedia defines in Swift: it hands the model its PNG and JPEG decoder
// (UIImage.registerDecoder). Nothing is decoded then.
#pragma once

void layerkit_media_register(void);
