// LayerKit test fixture, in the gl-transitions form as WebGL 1 and GLSL 1.20 hosts take it: a
// function named texture (an ordinary name there, a built-in in GLSL ES 3.00), overloaded and
// called in transition(), next to texture2D calls that mean the built-in. The loader renames
// the user's texture, code only: this comment keeps its texture(…).

// The new image left of `edge`, else the old one read the WebGL 1 way: texture2D on the host's
// `from` sampler, rows flipped (the surfaces are stored top-down; they are nearest-filtered, so
// at a pixel centre this is exactly getFromColor).
vec4 texture(vec2 p, float edge) {
  return p.x < edge ? getToColor(p) : texture2D(from, vec2(p.x, 1.0 - p.y));
}

// The edge runs a little past 1, so that the last column has turned at progress 1.
vec4 texture(vec2 p) {
  return texture(p, progress * 1.1);
}

vec4 transition(vec2 uv) {
  return texture(uv);
}
