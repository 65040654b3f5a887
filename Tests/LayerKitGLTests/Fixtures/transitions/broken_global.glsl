// LayerKit test fixture: a file-scope initializer with one deliberate error, on line 8:
// `undeclaredLimit` is not declared. The loader moves the initializer (lines 7–8) out of the
// declaration; GLTransitionTests asserts the compile error still names this file and line 8.
uniform float amount; // = 1.0

float reach = progress * amount;
float limit = min(reach,
  undeclaredLimit);

vec4 transition(vec2 uv) {
  return uv.x < limit ? getToColor(uv) : getFromColor(uv);
}
