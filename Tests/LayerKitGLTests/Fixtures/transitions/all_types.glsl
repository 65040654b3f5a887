// LayerKit test fixture, in the gl-transitions form: every uniform type and default comment form.
// A cell-by-cell wipe: each cell of `grid` turns to the new image when progress passes its own
// threshold in [0, 1); a glow weighted by progress * (1 - progress) is exactly 0 at both ends.
uniform float strength; // = 0.5
uniform float spreadX, spreadY; // = 0.25
uniform int steps; // = 4
uniform bool flip; // = true
uniform vec2 center; /* = vec2(0.5) */
uniform vec3 tint; // = vec3(1.0, 0.5, 0.25)
uniform vec4 shade;// = vec4(0., 0., 0., .6)
uniform ivec2 grid; // = ivec2(10, 10)
uniform sampler2D extra;
uniform float level; // the level, no default
uniform highp float scale /* = 2 */;
uniform int offset; // = -3
uniform bool inverted; // = false

vec4 transition(vec2 uv) {
  vec2 cell = floor(uv * vec2(grid));
  float t = fract((cell.x * 7.0 + cell.y * 13.0 + float(offset)) / float(steps * 5));
  if (flip != inverted) t = fract(t + 0.5);
  vec4 chosen = progress > t ? getToColor(uv) : getFromColor(uv);
  float d = length((uv - center) * vec2(spreadX, spreadY)) * strength * scale;
  vec4 glow = vec4(tint * d, 0.0) + shade * level + texture2D(extra, uv) * 0.0;
  return chosen + glow * (progress * (1.0 - progress));
}
