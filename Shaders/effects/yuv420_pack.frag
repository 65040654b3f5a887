#version 300 es
// The frame's RGBA target → BT.709 limited-range Y'CbCr 4:2:0 planes, packed so that one
// glReadPixels of this pass's RGBA8 output gives the planar frame itself (PlanarRenderer,
// GLBackend.startPlanesReadBack): texel (i, j) holds bytes 4 (j · u_packedWidth + i) … + 3 of
// the frame, in R, G, B, A order — the Y' plane (u_size.x × u_size.y bytes, rows top-down), then
// Cb, then Cr (u_size / 2 each), then zeros to the end of the last row. Each byte is found from
// its index, so a texel may hold the end of one row (or plane) and the start of the next: any
// even size packs the same way. The output is u_size.x / 2 texels wide, so the Y' plane fills
// exactly its first u_size.y / 2 rows: the pass is two draws, one over those rows with this file
// as it is (luma only), one over the rest compiled with LK_PACK_CHROMA defined (chroma only), and
// no fragment runs code for the other plane.
//
// The arithmetic is YUVConversion's (LayerKitMedia), in RenderMath.YCbCr420.Coefficients'
// integers: n = 255 c + bg (255 − a) per channel, then floor((k · n + offset) / 2^S) with S = 30
// for Y' and S = 32 for a 2×2 block's chroma (n summed over the block). GLSL ES 3.00 has 32-bit
// integers only, and k · n needs about 43 bits, so the result is put together from two halves:
// the low 32 bits of k · n + offset, exact in wrapping uint arithmetic, give T mod 2^S exactly;
// the float sum gives T / 2^S to about 10^-4; T / 2^S minus the exact fraction is then within
// 10^-4 of the integer floor(T / 2^S), which rounding finds. The bytes equal the CPU's.

precision highp float;
precision highp int;
precision highp sampler2D;

// Texture unit 0: the frame's target (texel (i, j) is target pixel (i, j)).
uniform sampler2D u_frame;
// The frame's size (both even) and this output's width in texels.
uniform ivec2 u_size;
uniform int u_packedWidth;
// The opaque background, straight 8-bit values.
uniform uvec3 u_background;
// Each output's coefficients twice: as 32-bit two's complement bit patterns, and as k / 2^S.
uniform uvec3 u_yBits;
uniform vec3 u_y;
uniform uvec3 u_cbBits;
uniform vec3 u_cb;
uniform uvec3 u_crBits;
uniform vec3 u_cr;
// The offsets (level and rounding half) likewise: their low 32 bits, and offset / 2^S.
uniform uint u_yOffsetBits;
uniform float u_yOffset;
uniform uint u_chromaOffsetBits;
uniform float u_chromaOffset;
// 2^S − 1 (the bits of T below the result, 0xFFFFFFFF for S = 32) and 2^−S, luma then chroma.
uniform uint u_yMask;
uniform float u_yUnit;
uniform uint u_chromaMask;
uniform float u_chromaUnit;

out vec4 fragColor;

// 255 × the pixel composited over the background, per channel: exact.
uvec3 composite(ivec2 p) {
  uvec4 c = uvec4(texelFetch(u_frame, p, 0) * 255.0 + 0.5);
  return c.rgb * 255u + u_background * (255u - c.a);
}

// floor((k · n + offset) / 2^S), from the exact low bits and the approximate float value.
float fixedPoint(uvec3 n, uvec3 kBits, vec3 k, uint offsetBits, float offset, uint mask, float unit) {
  uint low = kBits.x * n.x + kBits.y * n.y + kBits.z * n.z + offsetBits;
  float fraction = float(low & mask) * unit;
  float value = dot(k, vec3(n)) + offset;
  return floor(value - fraction + 0.5);
}

// Y' of pixel p.
float luma(ivec2 p) {
  return clamp(fixedPoint(composite(p), u_yBits, u_y, u_yOffsetBits, u_yOffset, u_yMask, u_yUnit), 16.0, 235.0);
}

// Cb (cr false) or Cr of the 2×2 block whose top-left pixel is p.
float chroma(ivec2 p, bool cr) {
  uvec3 n = composite(p) + composite(p + ivec2(1, 0)) + composite(p + ivec2(0, 1)) + composite(p + ivec2(1, 1));
  float v = fixedPoint(
    n, cr ? u_crBits : u_cbBits, cr ? u_cr : u_cb, u_chromaOffsetBits, u_chromaOffset, u_chromaMask, u_chromaUnit);
  return clamp(v, 16.0, 240.0);
}

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  // The frame's index of this texel's first byte.
  int index = 4 * (texel.y * u_packedWidth + texel.x);
  vec4 bytes;
#ifdef LK_PACK_CHROMA
  // Rows past the Y' plane: Cb, Cr and the padding. The first byte's place: plane 0 (Cb),
  // 1 (Cr) or 2 (padding, zeros), block (x, y) in it; each next byte is the next block.
  ivec2 size = u_size / 2;
  int planeBytes = size.x * size.y;
  int offset = index - u_size.x * u_size.y;
  int plane = min(offset / planeBytes, 2);
  offset -= plane * planeBytes;
  int y = offset / size.x;
  int x = offset - y * size.x;
  for (int k = 0; k < 4; k++) {
    // Padding reads a block inside the frame and writes 0.
    float v = chroma(2 * min(ivec2(x, y), size - 1), plane == 1);
    bytes[k] = plane < 2 ? v : 0.0;
    x += 1;
    if (x == size.x) {
      x = 0;
      y += 1;
      if (y == size.y) {
        y = 0;
        plane += 1;
      }
    }
  }
#else
  // Rows of the Y' plane (it ends at the end of a row: PlanarPackProgram.packedSize).
  int y = index / u_size.x;
  int x = index - y * u_size.x;
  for (int k = 0; k < 4; k++) {
    bytes[k] = luma(ivec2(x, y));
    x += 1;
    if (x == u_size.x) {
      x = 0;
      y += 1;
    }
  }
#endif
  fragColor = bytes / 255.0;
}
