#version 300 es
// The per-pixel rules of the parity contract: the line-by-line GLSL twin of
// Sources/LayerKit/RenderMath.swift and the path and blend-mode parts of RenderMath+Effects.swift.
// Change one, change the other; the parity tests say if they drifted apart. Same formulas, same
// order of operations, all in highp float (IEEE binary32).
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
// forward-W test are identities). HAS_PATH: the code of path shapes, taken where u_isPath
// (Shape.path; the path replaces the rounded rectangle and its border). HAS_MASK: the code of
// masks, taken where u_hasMask (coverage × a surface's alpha, Draw.mask). These two are uniform
// branches inside their variant: the loader compiles them together, so mask and path draws share
// a few programs and start-up stays short. HAS_COVERAGE: a coverage mask in a colour and
// nothing else but clips (a shape layer's fill or stroke), without the other shapes' code. HAS_BLEND: a blend mode other than normal, composited
// in the shader against the backdrop surface (GL blending is off for such a draw).
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
#ifndef HAS_PATH
#define HAS_PATH 1
#endif
#ifndef HAS_MASK
#define HAS_MASK 1
#endif
#ifndef HAS_BLEND
#define HAS_BLEND 1
#endif
#ifndef HAS_COVERAGE
#define HAS_COVERAGE 0
#endif
// HAS_CONTINUOUS: the code of continuous corners (RoundedRect.continuous), compiled into the
// `effects` variants only: llvmpipe runs a branch's code for every pixel even where no pixel
// takes it, which cost the common draws 15-20 % (measured: 50 rounded layers at 1080p).
#ifndef HAS_CONTINUOUS
#define HAS_CONTINUOUS 1
#endif

// Target pixel of the current render target's texel (0, 0) (see layer_quad.vert): whole numbers,
// so gl_FragCoord.xy + u_targetOrigin is exactly the target pixel centre.
uniform vec2 u_targetOrigin;

// The draw's plane: target pixel -> local (fromTarget), and row 2 of local -> target (toTarget),
// which gives the forward W.
uniform mat3 u_fromTarget;
uniform vec3 u_toTargetRow2;

// The shape: rounded rectangle (minX, minY, maxX, maxY), corner radius, border width (0 = fill).
uniform vec4 u_shapeBounds;
uniform float u_shapeRadius;
uniform int u_shapeCorners;
uniform float u_borderWidth;

// Clips, the first u_clipCount of each array.
uniform int u_clipCount;
uniform mat3 u_clipFromTarget[MAX_CLIPS];
uniform vec3 u_clipToTargetRow2[MAX_CLIPS];
uniform vec4 u_clipBounds[MAX_CLIPS];
uniform float u_clipRadius[MAX_CLIPS];
uniform int u_clipCorners[MAX_CLIPS];

uniform vec4 u_color;
// Gradient paints (Paint.gradient): kind −1 for none, 0 axial, 1 radial, 2 conic.
#define LK_MAX_STOPS 64
uniform int u_gradKind;
uniform vec2 u_gradStart;
uniform vec2 u_gradEnd;
uniform int u_gradCount;
uniform vec4 u_gradColors[LK_MAX_STOPS];
uniform float u_gradLocations[LK_MAX_STOPS];

// RenderMath.gradientColor.
vec4 lk_gradientColor(vec2 q) {
  vec2 d = u_gradEnd - u_gradStart;
  vec2 p = q - u_gradStart;
  float t;
  if (u_gradKind == 0) {
    float dd = d.x * d.x + d.y * d.y;
    t = dd > 0.0 ? (p.x * d.x + p.y * d.y) / dd : 0.0;
  } else if (u_gradKind == 1) {
    vec2 r = vec2(abs(d.x), abs(d.y));
    if (r.x == 0.0) r.x = r.y;
    if (r.y == 0.0) r.y = r.x;
    if (r.x == 0.0) {
      t = 1.0;
    } else {
      vec2 e = p / r;
      t = sqrt(e.x * e.x + e.y * e.y);
    }
  } else {
    float a = atan(p.y, p.x) - atan(d.y, d.x);
    t = a / (2.0 * 3.14159265358979);
    t -= floor(t);
  }
  t = min(max(t, 0.0), 1.0);
  if (t <= u_gradLocations[0]) return u_gradColors[0];
  for (int i = 1; i < u_gradCount; i++) {
    if (t <= u_gradLocations[i]) {
      float l0 = u_gradLocations[i - 1];
      float l1 = u_gradLocations[i];
      float f = l1 > l0 ? (t - l0) / (l1 - l0) : 1.0;
      vec4 a = u_gradColors[i - 1];
      vec4 b = u_gradColors[i];
      return a + (b - a) * f;
    }
  }
  return u_gradColors[u_gradCount - 1];
}
// Texture unit 0: the paint (an image or a surface).
uniform sampler2D u_texture;
uniform vec2 u_texScale;
uniform vec2 u_texOffset;
uniform bool u_texNearest;
// TextureTransform.slices (nine-slice contents): per axis the two breaks and three pieces.
uniform bool u_texSliced;
uniform vec2 u_texBreaksX;
uniform vec3 u_texScaleX;
uniform vec3 u_texOffsetX;
uniform vec2 u_texBreaksY;
uniform vec3 u_texScaleY;
uniform vec3 u_texOffsetY;

// Texture unit 1: the mask surface, sampled at uv = p * u_maskScale + u_maskOffset.
uniform sampler2D u_mask;
uniform vec2 u_maskScale;
uniform vec2 u_maskOffset;

// Texture unit 2: the backdrop surface, whose texel (0, 0) is target pixel u_backdropOrigin.
uniform sampler2D u_backdrop;
uniform ivec2 u_backdropOrigin;
// BlendMode as numbered by the BLEND_* constants below.
uniform int u_blendMode;

// Texture unit 3: the path's segments (x0, y0, x1, y1), RGBA32F, segment i at texel
// (i % width, i / width); the first u_segmentCount are the path's.
uniform highp sampler2D u_segments;
uniform int u_segmentCount;
uniform bool u_evenOdd;

// Texture unit 8: coverage masks (Shape.coverage), R8: the draw's mask covers target pixels
// u_coverageRect (x, y, width, height), its first byte at texel u_coverageTexel (an atlas).
uniform highp sampler2D u_coverage;
uniform ivec4 u_coverageRect;
uniform ivec2 u_coverageTexel;
uniform bool u_isCoverage;

// The uniform branches of HAS_PATH (paths and coverage masks) and HAS_MASK.
uniform bool u_isPath;
uniform bool u_hasMask;

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
// `corners` has RoundedRect.corners' bits: the quadrant's corner is rounded, or square; bit 16
// makes the rounded ones continuous (RoundedRect.continuous: a superellipse).
const float LK_CONTINUOUS_EXTENT = 1.528;    // RoundedRect.continuousExtent
const float LK_CONTINUOUS_EXPONENT = 3.26;   // RoundedRect.continuousExponent
float signedDistance(vec2 q, vec4 bounds, float cornerRadius, int corners, out vec2 normal) {
  vec2 lo = vec2(bounds.x, bounds.y);
  vec2 hi = vec2(bounds.z, bounds.w);
  vec2 center = (lo + hi) * 0.5;
  vec2 halfSize = (hi - lo) * 0.5;
  vec2 rel = q - center;
  vec2 s = vec2(rel.x >= 0.0 ? 1.0 : -1.0, rel.y >= 0.0 ? 1.0 : -1.0);
  int corner = (rel.x >= 0.0 ? 2 : 1) << (rel.y >= 0.0 ? 2 : 0);
  bool rounded = (corners & corner) != 0;
  bool continuous = rounded && (corners & 16) != 0;
  float reach = continuous ? max(cornerRadius, 0.0) * LK_CONTINUOUS_EXTENT : max(cornerRadius, 0.0);
  float radius = rounded ? min(reach, min(halfSize.x, halfSize.y)) : 0.0;
  vec2 d = vec2(abs(rel.x), abs(rel.y)) - (halfSize - radius);
#if HAS_CONTINUOUS
  if (continuous && d.x > 0.0 && d.y > 0.0) {
    float n = LK_CONTINUOUS_EXPONENT;
    vec2 t = d / radius;
    float f = pow(t.x, n) + pow(t.y, n) - 1.0;
    vec2 g = vec2(n * pow(t.x, n - 1.0), n * pow(t.y, n - 1.0)) / radius;
    float len = max(sqrt(g.x * g.x + g.y * g.y), 1e-20);
    normal = (g / len) * s;
    return f / len;
  }
#endif
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
float coverageRect(LocalPoint lp, vec4 bounds, float cornerRadius, int corners) {
  vec2 n;
  float sd = signedDistance(lp.q, bounds, cornerRadius, corners, n);
  vec2 g = vec2(sum2(n * lp.dqdx), sum2(n * lp.dqdy));
  float len = max(sqrt(g.x * g.x + g.y * g.y), 1e-8);
  return min(max(0.5 - sd / len, 0.0), 1.0);
}

// RenderMath.coverage(LocalPoint, Shape): the filled rounded rectangle, or the ring of a border.
float coverageShape(LocalPoint lp) {
  float outer = coverageRect(lp, u_shapeBounds, u_shapeRadius, u_shapeCorners);
#if !HAS_BORDER
  return outer;
#endif
  float bw = u_borderWidth;
  if (!(bw > 0.0)) return outer;
  vec4 b = u_shapeBounds;
  vec4 innerBounds = vec4(b.x + bw, b.y + bw, b.z - bw, b.w - bw);
  float innerRadius = max(u_shapeRadius - bw, 0.0);
  if (!(innerBounds.z > innerBounds.x && innerBounds.w > innerBounds.y)) return outer;
  return outer * (1.0 - coverageRect(lp, innerBounds, innerRadius, u_shapeCorners));
}

// RenderMath.coverage(SIMD2, Clip).
float coverageClip(vec2 p, int i) {
  LocalPoint lp;
  if (!unproject(p, u_clipFromTarget[i], u_clipToTargetRow2[i], lp)) return 0.0;
  return coverageRect(lp, u_clipBounds[i], u_clipRadius[i], u_clipCorners[i]);
}

// RenderMath.sampleBilinear: lk_sampleBilinear.
#include "layer/include/sample_bilinear.glsl"

#if HAS_PATH
// RenderMath.coverage(LocalPoint, PathGeometry): the winding rule decides inside, the distance to
// the nearest segment (through the Jacobian, in pixels) gives the 1-pixel ramp.
float coveragePath(LocalPoint lp) {
  vec2 q = lp.q;
  int winding = 0;
  float best = uintBitsToFloat(0x7F800000u);  // +infinity
  vec2 nearest = vec2(0.0);
  int width = textureSize(u_segments, 0).x;
  for (int i = 0; i < u_segmentCount; ++i) {
    vec4 s = texelFetch(u_segments, ivec2(i % width, i / width), 0);
    vec2 a = vec2(s.x, s.y);
    vec2 b = vec2(s.z, s.w);
    // Crossings of the ray from q towards +x, half-open in y so shared vertices count once.
    if ((a.y <= q.y) != (b.y <= q.y)) {
      float t = (q.y - a.y) / (b.y - a.y);
      float x = a.x + t * (b.x - a.x);
      if (x > q.x) winding += b.y > a.y ? 1 : -1;
    }
    vec2 e = b - a;
    float ee = e.x * e.x + e.y * e.y;
    vec2 d = q - a;
    float t = ee > 0.0 ? min(max((d.x * e.x + d.y * e.y) / ee, 0.0), 1.0) : 0.0;
    vec2 c = a + e * t;
    vec2 v = q - c;
    float dd = v.x * v.x + v.y * v.y;
    if (dd < best) {
      best = dd;
      nearest = v;
    }
  }
  bool inside = u_evenOdd ? (winding & 1) != 0 : winding != 0;
  float dist = sqrt(best);
  if (!(dist > 0.0)) return 0.5;
  vec2 n = nearest / dist;
  vec2 g = vec2(n.x * lp.dqdx.x + n.y * lp.dqdx.y, n.x * lp.dqdy.x + n.y * lp.dqdy.y);
  float len = max(sqrt(g.x * g.x + g.y * g.y), 1e-8);
  float sd = inside ? -dist : dist;
  return min(max(0.5 - sd / len, 0.0), 1.0);
}
#endif

#if HAS_PATH || HAS_COVERAGE
// RenderMath.coverage(SIMD2<Float>, CoverageMask): the mask's byte at the pixel, 0 outside it.
float coverageMask(vec2 p) {
  ivec2 t = ivec2(floor(p)) - u_coverageRect.xy;
  if (t.x < 0 || t.y < 0 || t.x >= u_coverageRect.z || t.y >= u_coverageRect.w) return 0.0;
  return texelFetch(u_coverage, t + u_coverageTexel, 0).r;
}
#endif

#if HAS_BLEND
// BlendMode, in the order of BlendMode.allCases (GLRenderer passes that index).
const int BLEND_NORMAL = 0;
const int BLEND_MULTIPLY = 1;
const int BLEND_SCREEN = 2;
const int BLEND_OVERLAY = 3;
const int BLEND_DARKEN = 4;
const int BLEND_LIGHTEN = 5;
const int BLEND_COLOR_DODGE = 6;
const int BLEND_COLOR_BURN = 7;
const int BLEND_SOFT_LIGHT = 8;
const int BLEND_HARD_LIGHT = 9;
const int BLEND_DIFFERENCE = 10;
const int BLEND_EXCLUSION = 11;
const int BLEND_HUE = 12;
const int BLEND_SATURATION = 13;
const int BLEND_COLOR = 14;
const int BLEND_LUMINOSITY = 15;
// Plus-lighter blends in place (glBlendFunc(GL_ONE, GL_ONE)) and never reaches this shader.
const int BLEND_PLUS_LIGHTER = 16;

// RenderMath.hardLight.
float hardLight(float cs, float cb) {
  if (cs <= 0.5) return cb * (2.0 * cs);
  float s = 2.0 * cs - 1.0;
  return cb + s - cb * s;
}

// RenderMath.blendChannel: B(cb, cs) of a separable mode on one unpremultiplied channel.
float blendChannel(int mode, float cb, float cs) {
  switch (mode) {
  case BLEND_MULTIPLY: return cb * cs;
  case BLEND_SCREEN: return cb + cs - cb * cs;
  case BLEND_OVERLAY: return hardLight(cb, cs);
  case BLEND_DARKEN: return min(cb, cs);
  case BLEND_LIGHTEN: return max(cb, cs);
  case BLEND_COLOR_DODGE:
    if (cb == 0.0) return 0.0;
    if (cs >= 1.0) return 1.0;
    return min(1.0, cb / (1.0 - cs));
  case BLEND_COLOR_BURN:
    if (cb >= 1.0) return 1.0;
    if (cs <= 0.0) return 0.0;
    return 1.0 - min(1.0, (1.0 - cb) / cs);
  case BLEND_HARD_LIGHT: return hardLight(cs, cb);
  case BLEND_SOFT_LIGHT: {
    if (cs <= 0.5) return cb - (1.0 - 2.0 * cs) * cb * (1.0 - cb);
    float d = cb <= 0.25 ? ((16.0 * cb - 12.0) * cb + 4.0) * cb : sqrt(cb);
    return cb + (2.0 * cs - 1.0) * (d - cb);
  }
  case BLEND_DIFFERENCE: return abs(cb - cs);
  case BLEND_EXCLUSION: return cb + cs - 2.0 * cb * cs;
  default: return cs;
  }
}

// RenderMath.lum.
float lum(vec3 c) {
  return (0.3 * c.x + 0.59 * c.y) + 0.11 * c.z;
}

// RenderMath.clipColor.
vec3 clipColor(vec3 c) {
  float l = lum(c);
  float n = min(min(c.x, c.y), c.z);
  float x = max(max(c.x, c.y), c.z);
  vec3 r = c;
  // Only where the divisor is positive: a grey colour has l == n, and 0/0 is no colour.
  if (n < 0.0 && l - n > 0.0) r = vec3(l) + (r - vec3(l)) * (l / (l - n));
  if (x > 1.0 && x - l > 0.0) r = vec3(l) + (r - vec3(l)) * ((1.0 - l) / (x - l));
  return r;
}

// RenderMath.setLum.
vec3 setLum(vec3 c, float l) {
  return clipColor(c + vec3(l - lum(c)));
}

// RenderMath.sat.
float sat(vec3 c) {
  return max(max(c.x, c.y), c.z) - min(min(c.x, c.y), c.z);
}

// RenderMath.setSat: (c - min) * s / (max - min).
vec3 setSat(vec3 c, float s) {
  float lo = min(min(c.x, c.y), c.z);
  float hi = max(max(c.x, c.y), c.z);
  if (!(hi > lo)) return vec3(0.0);
  return (c - vec3(lo)) * (s / (hi - lo));
}

// RenderMath.blendColor: the blend function of any mode on unpremultiplied colours. The four
// non-separable modes are written as one setLum(c, l) call on the mode's operands (the same
// operations as RenderMath's four calls, inlined once instead of four times).
vec3 blendColor(int mode, vec3 cb, vec3 cs) {
  if (mode < BLEND_HUE) {
    return vec3(blendChannel(mode, cb.x, cs.x), blendChannel(mode, cb.y, cs.y), blendChannel(mode, cb.z, cs.z));
  }
  // hue: setLum(setSat(cs, sat(cb)), lum(cb)); saturation: setLum(setSat(cb, sat(cs)), lum(cb));
  // color: setLum(cs, lum(cb)); luminosity: setLum(cb, lum(cs)).
  vec3 c = mode == BLEND_LUMINOSITY || mode == BLEND_SATURATION ? cb : cs;
  if (mode == BLEND_HUE || mode == BLEND_SATURATION) {
    c = setSat(c, sat(mode == BLEND_HUE ? cb : cs));
  }
  float l = lum(mode == BLEND_LUMINOSITY ? cs : cb);
  return setLum(c, l);
}

// RenderMath.composite: src over the backdrop dst (both premultiplied) with a blend mode.
vec4 composite(int mode, vec4 src, vec4 dst) {
  float sa = src.w;
  float da = dst.w;
  if (mode == BLEND_NORMAL) return src + dst * (1.0 - sa);
  vec3 cs = sa > 0.0 ? vec3(src.x, src.y, src.z) / sa : vec3(0.0);
  vec3 cb = da > 0.0 ? vec3(dst.x, dst.y, dst.z) / da : vec3(0.0);
  vec3 mixed = blendColor(mode, cb, cs);
  vec3 rgb = vec3(src.x, src.y, src.z) * (1.0 - da) + vec3(dst.x, dst.y, dst.z) * (1.0 - sa) + mixed * (sa * da);
  return vec4(rgb.x, rgb.y, rgb.z, sa + da * (1.0 - sa));
}
#endif

// The draw's premultiplied colour at target pixel centre p (RenderList.swift: coverage, then
// paint × (coverage × opacity)). False where the draw leaves the pixel alone: the plane does not
// map there, or the coverage is 0.
bool drawColor(vec2 p, out vec4 color) {
  color = vec4(0.0);
#if PROJECTIVE
  LocalPoint lp;
  if (!unproject(p, u_fromTarget, u_toTargetRow2, lp)) return false;
#else
  LocalPoint lp = unprojectAffine(p, u_fromTarget);
#endif
#if HAS_PATH
  float coverage = u_isCoverage ? coverageMask(p) : u_isPath ? coveragePath(lp) : coverageShape(lp);
#elif HAS_COVERAGE
  float coverage = coverageMask(p);
#else
  float coverage = coverageShape(lp);
#endif
#if HAS_CLIPS
  for (int i = 0; i < MAX_CLIPS; ++i) {
    if (i >= u_clipCount) break;
    coverage = coverage * coverageClip(p, i);
  }
#endif
#if HAS_MASK
  if (u_hasMask) coverage = coverage * lk_sampleBilinear(u_mask, p * u_maskScale + u_maskOffset).w;
#endif
  if (coverage == 0.0) return false;
#if HAS_TEXTURE
  vec2 uv = lp.q * u_texScale + u_texOffset;
  if (u_texSliced) {
    // TextureTransform.u / v: each axis's piece.
    int i = lp.q.x < u_texBreaksX.x ? 0 : (lp.q.x < u_texBreaksX.y ? 1 : 2);
    int j = lp.q.y < u_texBreaksY.x ? 0 : (lp.q.y < u_texBreaksY.y ? 1 : 2);
    uv = vec2(lp.q.x * u_texScaleX[i] + u_texOffsetX[i], lp.q.y * u_texScaleY[j] + u_texOffsetY[j]);
  }
  vec4 paint = u_texNearest ? lk_sampleNearest(u_texture, uv) : lk_sampleBilinear(u_texture, uv);
#else
  vec4 paint = u_gradKind < 0 ? u_color : lk_gradientColor(lp.q);
#endif
  color = paint * (coverage * u_opacity);
  return true;
}

void main() {
  // The target pixel centre (i + 0.5, j + 0.5): no y flip anywhere (see layer_quad.vert).
  vec2 p = gl_FragCoord.xy + u_targetOrigin;
  vec4 color;
  bool drawn = drawColor(p, color);
#if HAS_BLEND
  // GL blending is off and the pixel is replaced by the composite against the backdrop copy,
  // except where the draw does not reach: there the target keeps its pixel, as source-over of
  // nothing would (and composite(0, dst) need not be dst exactly: see clipColor).
  if (!drawn) discard;
  ivec2 texel = ivec2(gl_FragCoord.xy) + ivec2(u_targetOrigin) - u_backdropOrigin;
  color = composite(u_blendMode, color, texelFetch(u_backdrop, texel, 0));
#endif
  // Where nothing is drawn the colour is 0: source-over leaves the stored pixel as it was.
  fragColor = color;
}
