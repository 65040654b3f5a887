// LayerKit test fixture: `transition` takes an extra argument, so the host's call to
// transition(uv) fails to compile in transition_wrapper.frag's main(), not in this file.
uniform float amount; // = 1.0

vec4 transition(vec2 uv, float extra) {
  return mix(getFromColor(uv), getToColor(uv), progress * amount * extra);
}
