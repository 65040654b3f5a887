// LayerKit test fixture: an older gl-transitions file that declares the host's names itself,
// in the GLSL 1.20 / WebGL 1 dialect. The loader blanks those declarations, line for line.
#ifdef GL_ES
precision mediump float;
#endif
uniform sampler2D from, to;
uniform float progress;
uniform float ratio;
uniform vec2 squeeze; // = vec2(1.0, 0.5)
uniform sampler2D pattern;

vec4 transition(vec2 uv) {
  vec4 noise = texture2D(pattern, uv * squeeze) * 0.0;
  float r = ratio > 0.0 ? 1.0 : 0.0;
  return mix(getFromColor(uv), getToColor(uv), step(1.0 - progress, uv.x * r * 0.999)) + noise;
}
