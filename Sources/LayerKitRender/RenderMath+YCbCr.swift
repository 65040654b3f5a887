// BT.709 limited-range planar Y'CbCr 4:2:0, as PlanarRenderer writes it (Renderer.swift): the
// byte layout and the fixed-point coefficients of the conversion. The specification is
// YUVConversion's (LayerKitMedia/YUV/YUVConversion.swift): composite premultiplied RGBA8 over an
// opaque background, E'Y = 0.2126 R + 0.7152 G + 0.0722 B, Y' = 16 + 219 E'Y / 255,
// Cb = 128 + 224 (B − E'Y) / (1.8556 · 255), Cr = 128 + 224 (R − E'Y) / (1.5748 · 255), rounded
// half up and clamped; 4:2:0 chroma from the mean of each 2×2 block. The coefficients below are
// derived exactly as YUVConversion derives its own, so an output computed with them equals the
// CPU conversion's byte for byte (Shaders/effects/yuv420_pack.frag; PlanarReadbackTests).

extension RenderMath {
  /// The planes of one BT.709 limited-range 4:2:0 frame (`PlanarRenderer`).
  public enum YCbCr420 {
    /// Bytes in a frame of `width × height` pixels (both even): the Y' plane (`width × height`),
    /// then Cb and Cr (`width / 2 × height / 2` each).
    @inlinable
    public static func byteCount(width: Int, height: Int) -> Int {
      width * height + 2 * (width / 2) * (height / 2)
    }

    /// Fraction bits of the coefficients (luma); 4:2:0 chroma sums four pixels and has 2 more.
    package static let shift = 30

    /// The conversion in integers. With `n_c = 255 c + bg_c · (255 − a)` per channel (exactly
    /// 255 × the composited value), `Y' = (yR n_R + yG n_G + yB n_B + yOffset) >> shift`, and a
    /// 2×2 block's `Cb = (cbR ΣnR + cbG ΣnG + cbB ΣnB + chromaOffset) >> (shift + 2)` (likewise Cr),
    /// then clamped to 16…235 / 16…240. The offsets hold the level (16, 128) and the half that
    /// makes the shift round half up.
    package struct Coefficients: Sendable, Equatable {
      package let yR, yG, yB: Int
      package let cbR, cbG, cbB: Int
      package let crR, crG, crB: Int

      package init() {
        let one = Double(1 << YCbCr420.shift)
        let n = 255.0 * 255.0
        // yG is what remains of the rounded total, so white lands on exactly 235.
        let yTotal = Int((219 / n * one).rounded())
        yR = Int((219 * 0.2126 / n * one).rounded())
        yB = Int((219 * 0.0722 / n * one).rounded())
        yG = yTotal - yR - yB
        // Each chroma row sums to zero, so grey gives exactly 128.
        let cbScale = 224 / (1.8556 * n) * one
        cbR = -Int((0.2126 * cbScale).rounded())
        cbG = -Int((0.7152 * cbScale).rounded())
        cbB = -(cbR + cbG)
        let crScale = 224 / (1.5748 * n) * one
        crG = -Int((0.7152 * crScale).rounded())
        crB = -Int((0.0722 * crScale).rounded())
        crR = -(crG + crB)
      }

      /// 16.5 · 2^shift: Y's level and the rounding half.
      package static let yOffset = 16 << YCbCr420.shift + 1 << (YCbCr420.shift - 1)
      /// 128.5 · 2^(shift + 2): 4:2:0 chroma's level and the rounding half.
      package static let chromaOffset = 128 << (YCbCr420.shift + 2) + 1 << (YCbCr420.shift + 1)
    }
  }
}
