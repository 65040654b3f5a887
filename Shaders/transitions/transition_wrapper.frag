#version 300 es
// The host of every transition in the gl-transitions form (TransitionPass in RenderList.swift).
// The GPU backend (TransitionProgram) inserts the effect's text, adapted to GLSL ES 3.00 by
// GLTransitionSource, at the marker line below, numbered as the effect file's own lines, and
// resumes this file's numbering after it (docs/ARCHITECTURE.md, "Shader files"). After the
// effect's text comes lk_init_globals (GLTransitionSource.initializerFunction): the initializers
// of the effect's file-scope variables, which GLSL ES 3.00 refuses there unless constant. What
// this file gives the effect besides the gl-transitions names is prefixed `lk_`, clear of the
// names in users' files.
//
// The quad is effects/effect_quad.vert: the output surface, blending off; every pixel is written.

precision highp float;
precision highp int;
precision highp sampler2D;

uniform float progress;
// width / height of the pass's bounds.
uniform float ratio;
// Texture unit 0: the from-surface; unit 1: the to-surface. Both cover u_bounds, like the output.
uniform sampler2D from;
uniform sampler2D to;
// The pass's bounds in target pixels: (x, y, width, height).
uniform vec4 u_bounds;
// Target pixel of the output surface's texel (0, 0) (its bounds' origin).
uniform vec2 u_outputOrigin;

// Non-zero in the registration check only (GLBackend.checkFinite): an image read at a
// coordinate that is not a finite number gives lk_probeColor(lk_checkCoordinates) instead of
// what a frame gets there (transparent black, on both backends). The check draws every test frame
// with 1 and with 2: a picture that differs depends on such a read and is refused; one that reads
// there and throws the result away (mix(a, b, step(…)), a branch) is the same both times.
uniform int lk_checkCoordinates;

out vec4 fragColor;

#include "layer/include/sample_bilinear.glsl"

// An image at uv (y up), as gl-transitions reads the surfaces: lk_sampleBilinear at
// (uv.x, 1 − uv.y) in the image's own top-down texels. The built-in effects read their sampler2D
// parameters with it too. CPU twin: TransitionContext.sampleImage.
vec4 lk_sampleImage(sampler2D image, vec2 uv) {
  return lk_sampleBilinear(image, vec2(uv.x, 1.0 - uv.y));
}

// Two values a non-finite read gives in the two check draws: transparent black, as in a frame,
// and a finite colour no sampling could give.
vec4 lk_probeColor(int mode) {
  return mode == 1 ? vec4(0.0) : vec4(7.0, -3.0, 5.0, 11.0);
}

vec4 lk_read(sampler2D image, vec2 uv) {
  if (lk_checkCoordinates != 0 && (any(isnan(uv)) || !(abs(uv.x) < 1e30 && abs(uv.y) < 1e30))) {
    return lk_probeColor(lk_checkCoordinates);
  }
  return lk_sampleImage(image, uv);
}

vec4 getFromColor(vec2 uv) {
  return lk_read(from, uv);
}

vec4 getToColor(vec2 uv) {
  return lk_read(to, uv);
}

// LAYERKIT_TRANSITION_SOURCE

void main() {
  // First, as a GLSL 1.20 host initializes globals before main(): transition() may read them.
  lk_init_globals();
  // The target pixel centre (i + 0.5, j + 0.5): GL row j of a surface is its texel row j.
  vec2 p = gl_FragCoord.xy + u_outputOrigin;
  vec2 uv = vec2((p.x - u_bounds.x) / u_bounds.z, 1.0 - (p.y - u_bounds.y) / u_bounds.w);
#ifdef LK_EXACT_ENDS
  // A built-in whose catalogue entry says exactEnds (the loader defines LK_EXACT_ENDS) is exactly
  // the old image at progress <= 0 and the new one at >= 1, whatever its formula gives there
  // (a + (b - a) * 1 need not round to b). A user's file is compiled without it.
  if (progress <= 0.0) {
    fragColor = getFromColor(uv);
    return;
  }
  if (progress >= 1.0) {
    fragColor = getToColor(uv);
    return;
  }
#endif
  fragColor = transition(uv);
}
