// LayerKit test fixture: a default of the wrong type, on line 4.
uniform float fine; // = 1.0
uniform ivec2 cells; // = ivec2(4, 4)
uniform vec2 direction; // = vec3(1.0, 0.0, 0.0)

vec4 transition(vec2 uv) {
  return mix(getFromColor(uv), getToColor(uv), progress);
}
