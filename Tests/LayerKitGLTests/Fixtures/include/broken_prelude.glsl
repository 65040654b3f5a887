// An included file that includes prelude.glsl, then fails on its own line 4 (GLRendererTests).
#include "prelude.glsl"

float preludeBroken() { return undeclaredInPrelude; }
