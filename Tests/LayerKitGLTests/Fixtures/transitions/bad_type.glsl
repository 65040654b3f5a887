// LayerKit test fixture: a uniform of a type the gl-transitions form does not allow, on line 3.
uniform float fine; // = 1.0
uniform mat3 rotation;

vec4 transition(vec2 uv) {
  return mix(getFromColor(uv), getToColor(uv), progress);
}
