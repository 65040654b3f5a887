// LayerKit test fixture: a gl-transitions-form file with one deliberate error, on line 8:
// `undeclaredAmount` is not declared. GLTransitionTests asserts the compile error names this file
// and line 8 (the file's own numbering, not the wrapper's).
uniform float amount; // = 1.0

vec4 transition(vec2 uv) {
  vec4 a = getFromColor(uv);
  return mix(a, getToColor(uv), progress * undeclaredAmount);
}
