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

// Non-zero in the registration check only (GLBackend.checkFinite): a pixel whose effect read an
// image at a coordinate that is not a finite number is written as lk_nonFiniteCoordinateMark, so
// that the check can name it. In a frame such a read samples nothing (transparent black), which
// no 8-bit pixel could tell from a real colour.
uniform int lk_checkCoordinates;
bool lk_readNonFiniteCoordinate;
const vec4 lk_nonFiniteCoordinateMark = vec4(-1.0e38);

out vec4 fragColor;

#include "layer/include/sample_bilinear.glsl"

// An image at uv (y up), as gl-transitions reads the surfaces: lk_sampleBilinear at
// (uv.x, 1 − uv.y) in the image's own top-down texels. The built-in effects read their sampler2D
// parameters with it too. CPU twin: TransitionContext.sampleImage.
vec4 lk_sampleImage(sampler2D image, vec2 uv) {
  return lk_sampleBilinear(image, vec2(uv.x, 1.0 - uv.y));
}

// Whether uv is a usable coordinate, noting it when not (the sampler's own test).
void lk_noteCoordinate(vec2 uv) {
  if (any(isnan(uv)) || !(abs(uv.x) < 1e30 && abs(uv.y) < 1e30)) lk_readNonFiniteCoordinate = true;
}

vec4 getFromColor(vec2 uv) {
  lk_noteCoordinate(uv);
  return lk_sampleImage(from, uv);
}

vec4 getToColor(vec2 uv) {
  lk_noteCoordinate(uv);
  return lk_sampleImage(to, uv);
}

// LAYERKIT_TRANSITION_SOURCE

void main() {
  lk_readNonFiniteCoordinate = false;
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
  if (lk_checkCoordinates != 0 && lk_readNonFiniteCoordinate) fragColor = lk_nonFiniteCoordinateMark;
}
