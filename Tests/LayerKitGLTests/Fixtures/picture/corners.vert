// A user's vertex shader for PictureShaderTests: takes the corners in `position` as LayerKit's
// own does, and hands the fragment shader their position scaled to [0, 1].
attribute vec2 position;
varying vec2 v_place;

void main() {
  v_place = position * 0.5 + 0.5;
  gl_Position = vec4(position, 0.0, 1.0);
}
