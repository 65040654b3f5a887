#version 300 es
// The per-pixel rules of the parity contract: the line-by-line GLSL twin of
// Sources/LayerKit/RenderMath.swift. Change one, change the other; the parity tests say if they
// drifted apart. Same formulas, same order of operations, all in highp float (IEEE binary32).
//
// Matrices arrive as glUniformMatrix3fv(Matrix3.columnMajor), so m * v here is Matrix3.apply(v)
// there; row(m, i) spells out Matrix3.row<i>, and sum3/sum2 spell out SIMD's left-to-right sum().

precision highp float;
precision highp int;
precision highp sampler2D;

// The loader defines MAX_CLIPS as RenderList.maxClips; the default keeps this file compilable alone.
#ifndef MAX_CLIPS
#define MAX_CLIPS 4
#endif

// Variants, compiled once each at start-up and chosen per draw, so a draw runs only the code it
// needs (software rasterizers such as llvmpipe execute both sides of a branch across a SIMD
// batch). Every variant computes bit-for-bit what the general path computes for such a draw.
// HAS_TEXTURE: the paint samples a texture (else a colour). HAS_CLIPS: u_clipCount > 0.
// HAS_BORDER: the shape is a ring. PROJECTIVE: the mapping has perspective (else row 2 of both
// matrices is exactly (0, 0, 1), so h.z is exactly 1 and RenderMath.unproject's divisions and the
// forward-W test are identities).
#ifndef HAS_TEXTURE
#define HAS_TEXTURE 1
#endif
#ifndef HAS_CLIPS
#define HAS_CLIPS 1
#endif
#ifndef HAS_BORDER
#define HAS_BORDER 1
#endif
#ifndef PROJECTIVE
#define PROJECTIVE 1
#endif

// The draw's plane: target pixel -> local (fromTarget), and row 2 of local -> target (toTarget),
// which gives the forward W.
uniform mat3 u_fromTarget;
uniform vec3 u_toTargetRow2;

// The shape: rounded rectangle (minX, minY, maxX, maxY), corner radius, border width (0 = fill).
uniform vec4 u_shapeBounds;
uniform float u_shapeRadius;
uniform float u_borderWidth;

// Clips, the first u_clipCount of each array.
uniform int u_clipCount;
uniform mat3 u_clipFromTarget[MAX_CLIPS];
uniform vec3 u_clipToTargetRow2[MAX_CLIPS];
uniform vec4 u_clipBounds[MAX_CLIPS];
uniform float u_clipRadius[MAX_CLIPS];

uniform vec4 u_color;
uniform sampler2D u_texture;
uniform vec2 u_texScale;
uniform vec2 u_texOffset;

uniform float u_opacity;

out vec4 fragColor;

struct LocalPoint {
  vec2 q;
  vec2 dqdx;
  vec2 dqdy;
};

float sum2(vec2 v) {
  return v.x + v.y;
}

float sum3(vec3 v) {
  return (v.x + v.y) + v.z;
}

// Matrix3.row<i>: entry (i, c) is column c, row i.
vec3 row(mat3 m, int i) {
  return vec3(m[0][i], m[1][i], m[2][i]);
}

// Matrix3.apply.
vec3 apply(mat3 m, vec3 v) {
  return vec3(sum3(row(m, 0) * v), sum3(row(m, 1) * v), sum3(row(m, 2) * v));
}

// RenderMath.unproject of an affine mapping (row 2 of both matrices exactly (0, 0, 1)): h.z is
// exactly 1, so q = h.xy, W = 1, and the Jacobian's columns are the matrix's, all exactly.
LocalPoint unprojectAffine(vec2 p, mat3 inv) {
  vec3 h = apply(inv, vec3(p.x, p.y, 1.0));
  return LocalPoint(h.xy, vec2(row(inv, 0).x, row(inv, 1).x), vec2(row(inv, 0).y, row(inv, 1).y));
}

// RenderMath.unproject: false where the plane is not visible at p.
bool unproject(vec2 p, mat3 inv, vec3 toTargetRow2, out LocalPoint lp) {
  vec3 h = apply(inv, vec3(p.x, p.y, 1.0));
  if (abs(h.z) < 1e-20) return false;
  vec2 q = vec2(h.x / h.z, h.y / h.z);
  // Near the horizon q overflows: such a point is no pixel's business (NaN fails the test too).
  if (!(abs(q.x) < 1e30 && abs(q.y) < 1e30)) return false;
  float w = sum3(toTargetRow2 * vec3(q.x, q.y, 1.0));
  if (!(w > 1e-6)) return false;
  // d(q)/d(p) of q = (A p~) / (c . p~): (A_col - q c_col) / (c . p~).
  vec2 dqdx = (vec2(row(inv, 0).x, row(inv, 1).x) - q * row(inv, 2).x) / h.z;
  vec2 dqdy = (vec2(row(inv, 0).y, row(inv, 1).y) - q * row(inv, 2).y) / h.z;
  lp = LocalPoint(q, dqdx, dqdy);
  return true;
}

// RenderMath.signedDistance: negative inside, in local units; `normal` is the unit gradient.
// sign(0) counts as +1 (GLSL's sign() would give 0, so it is spelled out).
float signedDistance(vec2 q, vec4 bounds, float cornerRadius, out vec2 normal) {
  vec2 lo = vec2(bounds.x, bounds.y);
  vec2 hi = vec2(bounds.z, bounds.w);
  vec2 center = (lo + hi) * 0.5;
  vec2 halfSize = (hi - lo) * 0.5;
  float radius = min(max(cornerRadius, 0.0), min(halfSize.x, halfSize.y));
  vec2 rel = q - center;
  vec2 s = vec2(rel.x >= 0.0 ? 1.0 : -1.0, rel.y >= 0.0 ? 1.0 : -1.0);
  vec2 d = vec2(abs(rel.x), abs(rel.y)) - (halfSize - radius);
  if (d.x > 0.0 && d.y > 0.0) {
    float len = sqrt(d.x * d.x + d.y * d.y);
    normal = (d / len) * s;
    return len - radius;
  }
  if (d.x >= d.y) {
    normal = vec2(s.x, 0.0);
    return d.x - radius;
  }
  normal = vec2(0.0, s.y);
  return d.y - radius;
}

// RenderMath.coverage(LocalPoint, RoundedRect): the 1-pixel ramp clamp(0.5 - d, 0, 1).
float coverageRect(LocalPoint lp, vec4 bounds, float cornerRadius) {
  vec2 n;
  float sd = signedDistance(lp.q, bounds, cornerRadius, n);
  vec2 g = vec2(sum2(n * lp.dqdx), sum2(n * lp.dqdy));
  float len = max(sqrt(g.x * g.x + g.y * g.y), 1e-8);
  return min(max(0.5 - sd / len, 0.0), 1.0);
}

// RenderMath.coverage(LocalPoint, Shape): the filled rounded rectangle, or the ring of a border.
float coverageShape(LocalPoint lp) {
  float outer = coverageRect(lp, u_shapeBounds, u_shapeRadius);
#if !HAS_BORDER
  return outer;
#endif
  float bw = u_borderWidth;
  if (!(bw > 0.0)) return outer;
  vec4 b = u_shapeBounds;
  vec4 innerBounds = vec4(b.x + bw, b.y + bw, b.z - bw, b.w - bw);
  float innerRadius = max(u_shapeRadius - bw, 0.0);
  if (!(innerBounds.z > innerBounds.x && innerBounds.w > innerBounds.y)) return outer;
  return outer * (1.0 - coverageRect(lp, innerBounds, innerRadius));
}

// RenderMath.coverage(SIMD2, Clip).
float coverageClip(vec2 p, int i) {
  LocalPoint lp;
  if (!unproject(p, u_clipFromTarget[i], u_clipToTargetRow2[i], lp)) return 0.0;
  return coverageRect(lp, u_clipBounds[i], u_clipRadius[i]);
}

// RenderMath.sampleBilinear: manual bilinear with clamp-to-edge over texelFetch (never the
// hardware filter), texel centres at (i + 0.5) / size, a + (b - a) * t. texelFetch of the RGBA8
// texture gives the stored bytes / 255.
vec4 sampleBilinear(vec2 uv) {
  ivec2 size = textureSize(u_texture, 0);
  vec2 t = uv * vec2(float(size.x), float(size.y)) - 0.5;
  float fx0 = floor(t.x);
  float fy0 = floor(t.y);
  vec2 f = vec2(t.x - fx0, t.y - fy0);
  // Clamp in float first: uv may be far outside [0, 1] (or huge) where contents overhang.
  int x0 = int(min(max(fx0, 0.0), float(size.x - 1)));
  int x1 = int(min(max(fx0 + 1.0, 0.0), float(size.x - 1)));
  int y0 = int(min(max(fy0, 0.0), float(size.y - 1)));
  int y1 = int(min(max(fy0 + 1.0, 0.0), float(size.y - 1)));
  vec4 c00 = texelFetch(u_texture, ivec2(x0, y0), 0);
  vec4 c10 = texelFetch(u_texture, ivec2(x1, y0), 0);
  vec4 c01 = texelFetch(u_texture, ivec2(x0, y1), 0);
  vec4 c11 = texelFetch(u_texture, ivec2(x1, y1), 0);
  vec4 top = c00 + (c10 - c00) * f.x;
  vec4 bottom = c01 + (c11 - c01) * f.x;
  return top + (bottom - top) * f.y;
}

void main() {
  // The target pixel centre (i + 0.5, j + 0.5): no y flip anywhere (see layer_quad.vert).
  vec2 p = gl_FragCoord.xy;
#if PROJECTIVE
  LocalPoint lp;
  if (!unproject(p, u_fromTarget, u_toTargetRow2, lp)) {
    fragColor = vec4(0.0);
    return;
  }
#else
  LocalPoint lp = unprojectAffine(p, u_fromTarget);
#endif
  float coverage = coverageShape(lp);
#if HAS_CLIPS
  for (int i = 0; i < MAX_CLIPS; ++i) {
    if (i >= u_clipCount) break;
    coverage = coverage * coverageClip(p, i);
  }
#endif
  if (coverage == 0.0) {
    fragColor = vec4(0.0);
    return;
  }
#if HAS_TEXTURE
  vec2 uv = lp.q * u_texScale + u_texOffset;
  vec4 paint = sampleBilinear(uv);
#else
  vec4 paint = u_color;
#endif
  fragColor = paint * (coverage * u_opacity);
}
