import Foundation

/// The Y'CbCr matrix of a video: how its R'G'B' became Y', Cb and Cr (limited range).
///
/// LayerKit renders and mixes in BT.709 and tags what it encodes as BT.709 (MP4, WebM, MOV). A
/// stream with no tag is read by its size: players and ffmpeg take an untagged standard-definition
/// video (at most 1024 × 576) as BT.601 and a larger one as BT.709, so a Y4M file — which has no
/// tag ffmpeg reads — is written in the matrix its size implies (`untagged(width:height:)`), and
/// says which in `XLAYERKIT_MATRIX`.
public enum YCbCrMatrix: String, Sendable, Hashable, CaseIterable {
  /// ITU-R BT.709: Kr 0.2126, Kb 0.0722.
  case bt709
  /// ITU-R BT.601 (SMPTE 170M): Kr 0.299, Kb 0.114.
  case bt601

  /// The matrix a consumer assumes for an untagged video of this size.
  public static func untagged(width: Int, height: Int) -> YCbCrMatrix {
    width > 1024 || height > 576 ? .bt709 : .bt601
  }

  /// The red and blue weights of luma.
  var weights: (kr: Double, kb: Double) {
    switch self {
    case .bt709: (0.2126, 0.0722)
    case .bt601: (0.299, 0.114)
    }
  }

  /// Y4M's tag value (`XLAYERKIT_MATRIX=BT709`).
  public var tag: String { rawValue.uppercased() }

  /// The matrix of a tag value (`BT709`, `BT601`), nil for another.
  public init?(tag: String) {
    guard let m = YCbCrMatrix(rawValue: tag.lowercased()) else { return nil }
    self = m
  }
}

/// Re-expresses limited-range Y'CbCr planes from one matrix in another, in place: the R'G'B' each
/// pixel stands for is kept (to within the rounding of one level), its Y', Cb and Cr are those of
/// the other matrix. Both conversions are linear, so `Y'₂ = Y'₁ + a·Cb₁ + b·Cr₁` and each chroma
/// is a mix of both; the tables below hold them for every (Cb, Cr) pair. In 4:2:0 the block's
/// chroma corrects each of its four lumas.
public struct YCbCrRematrix: Sendable {
  public let from: YCbCrMatrix
  public let to: YCbCrMatrix
  /// Luma's change for each (Cb, Cr), in 1/256 levels; the new Cb and Cr.
  private let lumaDelta: [Int32]
  private let cb: [UInt8]
  private let cr: [UInt8]

  public init(from: YCbCrMatrix, to: YCbCrMatrix) {
    self.from = from
    self.to = to
    // Normalized: Y'n = (Y' − 16) / 219, Cbn = (Cb − 128) / 224, Crn likewise.
    let (kr1, kb1) = from.weights
    let (kr2, kb2) = to.weights
    let (kg1, kg2) = (1 - kr1 - kb1, 1 - kr2 - kb2)
    var delta = [Int32](repeating: 0, count: 65536)
    var cbOut = [UInt8](repeating: 128, count: 65536)
    var crOut = [UInt8](repeating: 128, count: 65536)
    for u in 0..<256 {
      for v in 0..<256 {
        let cbn = (Double(u) - 128) / 224
        let crn = (Double(v) - 128) / 224
        // R'G'B' relative to Y'n (Y'n cancels: every term is linear in it with weight 1).
        let r = 2 * (1 - kr1) * crn
        let b = 2 * (1 - kb1) * cbn
        let g = -(kr1 * r + kb1 * b) / kg1
        let y2 = kr2 * r + kg2 * g + kb2 * b
        let cb2 = (b - y2) / (2 * (1 - kb2))
        let cr2 = (r - y2) / (2 * (1 - kr2))
        let i = u << 8 | v
        delta[i] = Int32((y2 * 219 * 256).rounded())
        cbOut[i] = UInt8(min(max((128 + cb2 * 224).rounded(), 16), 240))
        crOut[i] = UInt8(min(max((128 + cr2 * 224).rounded(), 16), 240))
      }
    }
    (lumaDelta, cb, cr) = (delta, cbOut, crOut)
  }

  /// Converts one frame's planes (`layout`'s Y', Cb, Cr, tightly packed) in place.
  public func apply(_ planes: UnsafeMutableRawBufferPointer, layout: YUVFrameLayout) {
    guard from != to else { return }
    let offsets = layout.planeOffsets
    let base = planes.bindMemory(to: UInt8.self).baseAddress!
    let (w, cw) = (layout.width, layout.chromaWidth)
    let shift = layout.chroma == .yuv420 ? 1 : 0
    for cy in 0..<layout.chromaHeight {
      let cbRow = base + offsets.cb + cy * cw
      let crRow = base + offsets.cr + cy * cw
      for cx in 0..<cw {
        let i = Int(cbRow[cx]) << 8 | Int(crRow[cx])
        let d = lumaDelta[i]
        for dy in 0...shift {
          let yRow = base + offsets.y + ((cy << shift) + dy) * w
          for dx in 0...shift {
            let x = (cx << shift) + dx
            let y = (Int32(yRow[x]) << 8) + d + 128
            yRow[x] = UInt8(truncatingIfNeeded: min(max(y >> 8, 16), 235))
          }
        }
        cbRow[cx] = cb[i]
        crRow[cx] = cr[i]
      }
    }
  }

  /// BT.709 planes as the BT.601 an untagged SD consumer reads, and back.
  public static let bt709To601 = YCbCrRematrix(from: .bt709, to: .bt601)
  public static let bt601To709 = YCbCrRematrix(from: .bt601, to: .bt709)

  /// The conversion from LayerKit's BT.709 to `matrix` (nil when it is BT.709).
  public static func fromBT709(to matrix: YCbCrMatrix) -> YCbCrRematrix? { matrix == .bt709 ? nil : bt709To601 }
  /// The conversion from `matrix` to BT.709 (nil when it is BT.709).
  public static func toBT709(from matrix: YCbCrMatrix) -> YCbCrRematrix? { matrix == .bt709 ? nil : bt601To709 }
}
