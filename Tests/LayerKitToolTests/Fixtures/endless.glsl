// A transition in the gl-transitions form that takes minutes a frame: every pixel runs a loop of
// `loops` steps whose result is used, so the compiler cannot remove it (Mesa's llvmpipe ends any
// loop after 65535 iterations, which at 640×360 is still over ten billion steps a frame). The
// hardening tests use it for --frame-time-limit and for SIGTERM during a stuck frame.
uniform float loops; // = 1000000.0

vec4 transition(vec2 uv) {
  float acc = 0.0;
  for (float i = 0.0; i < loops; i += 1.0) {
    acc = fract(acc * 1.618 + sin(i * uv.x + acc));
  }
  return mix(getFromColor(uv), getToColor(uv), progress) + vec4(acc * 1e-6);
}
