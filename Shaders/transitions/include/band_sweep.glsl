// A band `width` wide (a fraction of the output's width) sweeping across the frame along
// `angle` (radians; 0 moves left to right, uv y up) as `progress` goes from 0 to 1: Core Image's
// swipe and copy-machine transitions. Included (`#include`, docs/ARCHITECTURE.md) by
// transitions/swipe.glsl and transitions/copy_machine.glsl, after their `angle` and `width`
// uniforms. CPU twin: CPUEffects.Band.

// Smoothstep over [0, 1], spelled out so that the CPU twin does the same operations.
float ramp(float x) {
  float t = clamp(x, 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

// How far the band has passed `uv`: 0 ahead of it (the old content), 1 behind it (the new).
float bandMix(vec2 uv) {
  vec2 d = vec2(cos(angle), sin(angle));
  // Width units: x spans [0, 1], y spans [0, h].
  float h = 1.0 / ratio;
  // The frame's extent along d: its corners projected on d.
  float lo = min(d.x, 0.0) + min(d.y * h, 0.0);
  float hi = max(d.x, 0.0) + max(d.y * h, 0.0);
  float w = max(width, 0.0001);
  float s = uv.x * d.x + uv.y * h * d.y;
  // The band's leading edge travels from lo (nothing covered) to hi + w (everything behind it).
  float edge = lo + (hi - lo + w) * progress;
  return ramp((edge - s) / w);
}
