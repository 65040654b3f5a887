// An include line, which WebGL 1 does not have: refused at line 4.
precision mediump float;

#include "layer/include/sample_bilinear.glsl"

void main() {
  gl_FragColor = vec4(1.0);
}
