// LayerKit test fixture: a user's file with an include directive on line 4, which the host does
// not expand in a user's file (only the built-ins' includes are): the parser refuses that line
// before GL sees it. GLTransitionTests asserts the error names this file and line 4.
#include "layer/include/sample_bilinear.glsl"

vec4 transition(vec2 uv) {
  return lk_sampleBilinear(from, uv);
}
