// Pairs with corners.vert: red from the interpolated horizontal place, green from the vertical.
precision mediump float;

varying vec2 v_place;

void main() {
  gl_FragColor = vec4(v_place.x, v_place.y, 0.0, 1.0);
}
