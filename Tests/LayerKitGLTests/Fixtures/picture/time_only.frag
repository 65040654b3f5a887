// Only the time, no resolution; the precision guarded as glslsandbox writes it. The alpha is
// 0.6 (straight), so the picture read back is premultiplied by it.
#ifdef GL_ES
precision mediump float;
#endif

uniform float time;

void main() {
  gl_FragColor = vec4(1.0, fract(time), 0.0, 0.6);
}
