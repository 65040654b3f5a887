// LayerKitTextRegistration: one load-time hook, so a text layer draws with no set-up call.
//
// When a program links LayerKitText (the LayerKit product links it), the constructor in
// registration.c runs as the program loads and calls layerkit_text_register(), which LayerKitText
// defines in Swift: it hands the model a provider of its shared font stack
// (TextLayer.registerLayoutEngineProvider). Nothing is started then; fontconfig and FreeType
// start when the first text layer is drawn.
#pragma once

void layerkit_text_register(void);
