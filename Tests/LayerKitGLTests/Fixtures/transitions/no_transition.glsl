// LayerKit test fixture: no `transition` function (the entry point is misnamed).
uniform float amount; // = 1.0

vec4 transitions(vec2 uv) {
  return mix(getFromColor(uv), getToColor(uv), progress * amount);
}
