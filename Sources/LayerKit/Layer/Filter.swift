import Foundation

/// A filter for `Layer.filters` and `Layer.backgroundFilters` (a CIFilter in Core Animation), with
/// Core Image's parameter names and defaults. Colour filters work on unpremultiplied colour, as
/// Core Image's do, and consecutive colour filters are applied without clamping in between (Core
/// Image's working space is unclamped); the result is clamped once, when stored.
public struct Filter: Hashable, Sendable {
  /// What the filter does, with its parameters.
  public enum Effect: Hashable, Sendable {
    /// CIGaussianBlur: `inputRadius` (default 10) is the Gaussian's standard deviation in points.
    case gaussianBlur(radius: Double)
    /// CIColorControls: saturation (1), brightness (0), contrast (1), applied in that order:
    /// mix(luma, c, saturation) with Rec. 709 luma, + brightness, then (c − 0.5) × contrast + 0.5.
    case colorControls(saturation: Double, brightness: Double, contrast: Double)
    /// CIColorMatrix: out = (r·c, g·c, b·c, a·c) + bias on unpremultiplied RGBA.
    case colorMatrix(r: SIMD4<Double>, g: SIMD4<Double>, b: SIMD4<Double>, a: SIMD4<Double>, bias: SIMD4<Double>)
    /// CIHueAdjust: `inputAngle` radians (default 0), the hue rotation of SVG's feColorMatrix.
    case hueRotation(angle: Double)
    /// CISepiaTone: `inputIntensity` in [0, 1] (default 1), the sepia matrix of CSS filters.
    case sepia(intensity: Double)
    /// CIColorInvert: 1 − c on unpremultiplied colour, alpha kept.
    case invert
  }

  /// The name that key paths use: "filters.NAME.inputRadius".
  public var name: String
  public var effect: Effect

  public init(name: String? = nil, _ effect: Effect) {
    self.effect = effect
    self.name = name ?? effect.defaultName
  }

  public static func gaussianBlur(radius: Double = 10) -> Filter { Filter(.gaussianBlur(radius: radius)) }
  public static func colorControls(saturation: Double = 1, brightness: Double = 0, contrast: Double = 1) -> Filter {
    Filter(.colorControls(saturation: saturation, brightness: brightness, contrast: contrast))
  }
  public static func colorMatrix(
    r: SIMD4<Double> = [1, 0, 0, 0], g: SIMD4<Double> = [0, 1, 0, 0], b: SIMD4<Double> = [0, 0, 1, 0],
    a: SIMD4<Double> = [0, 0, 0, 1], bias: SIMD4<Double> = .zero
  ) -> Filter { Filter(.colorMatrix(r: r, g: g, b: b, a: a, bias: bias)) }
  public static func hueRotation(angle: Double = 0) -> Filter { Filter(.hueRotation(angle: angle)) }
  public static func sepia(intensity: Double = 1) -> Filter { Filter(.sepia(intensity: intensity)) }
  public static let invert = Filter(.invert)

  /// The scalar parameters by Core Image name, for key paths and animation.
  public var parameters: [String: Double] {
    switch effect {
    case .gaussianBlur(let r): ["inputRadius": r]
    case .colorControls(let s, let b, let c): ["inputSaturation": s, "inputBrightness": b, "inputContrast": c]
    case .colorMatrix: [:]
    case .hueRotation(let a): ["inputAngle": a]
    case .sepia(let i): ["inputIntensity": i]
    case .invert: [:]
    }
  }

  /// Sets a scalar parameter by its Core Image name.
  /// - Throws: `FilterError.unknownParameter` naming the parameters that exist, or
  ///   `.invalidValue` for a non-finite or out-of-range value.
  public mutating func setValue(_ value: Double, forKey key: String) throws(FilterError) {
    guard value.isFinite else { throw .invalidValue(filter: name, parameter: key, value: value) }
    switch (effect, key) {
    case (.gaussianBlur, "inputRadius"):
      guard value >= 0 else { throw .invalidValue(filter: name, parameter: key, value: value) }
      effect = .gaussianBlur(radius: value)
    case (.colorControls(_, let b, let c), "inputSaturation"):
      effect = .colorControls(saturation: value, brightness: b, contrast: c)
    case (.colorControls(let s, _, let c), "inputBrightness"):
      effect = .colorControls(saturation: s, brightness: value, contrast: c)
    case (.colorControls(let s, let b, _), "inputContrast"):
      effect = .colorControls(saturation: s, brightness: b, contrast: value)
    case (.hueRotation, "inputAngle"): effect = .hueRotation(angle: value)
    case (.sepia, "inputIntensity"): effect = .sepia(intensity: value)
    default:
      throw .unknownParameter(filter: name, parameter: key, known: parameters.keys.sorted())
    }
  }

  /// Checks every parameter: finite, and a blur radius not negative.
  public func validate() throws(FilterError) {
    switch effect {
    case .gaussianBlur(let r):
      guard r.isFinite, r >= 0 else { throw .invalidValue(filter: name, parameter: "inputRadius", value: r) }
    case .colorMatrix(let r, let g, let b, let a, let bias):
      for v in [r, g, b, a, bias] where !(v.x.isFinite && v.y.isFinite && v.z.isFinite && v.w.isFinite) {
        throw .invalidValue(filter: name, parameter: "inputRVector…inputBiasVector", value: .nan)
      }
    default:
      for (k, v) in parameters where !v.isFinite { throw .invalidValue(filter: name, parameter: k, value: v) }
    }
  }

  /// The colour matrix of a colour filter (nil for a blur), in Double.
  var colorMatrix: ColorMatrix64? {
    switch effect {
    case .gaussianBlur: return nil
    case .colorControls(let s, let br, let c):
      // Saturation about Rec. 709 luma, then brightness, then contrast about 0.5.
      let l = SIMD3(0.2125, 0.7154, 0.0721)
      var m = ColorMatrix64.identity
      for i in 0..<3 {
        var row = SIMD4<Double>(l.x * (1 - s), l.y * (1 - s), l.z * (1 - s), 0)
        row[i] += s
        m.rows[i] = row * c
        m.bias[i] = c * br + 0.5 * (1 - c)
      }
      return m
    case .colorMatrix(let r, let g, let b, let a, let bias):
      return ColorMatrix64(rows: [r, g, b, a], bias: bias)
    case .hueRotation(let angle):
      let (c, s) = (cos(angle), sin(angle))
      return ColorMatrix64(
        rows: [
          [0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928, 0],
          [0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283, 0],
          [0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072, 0],
          [0, 0, 0, 1],
        ], bias: .zero)
    case .sepia(let intensity):
      let k = 1 - min(max(intensity, 0), 1)
      return ColorMatrix64(
        rows: [
          [0.393 + 0.607 * k, 0.769 - 0.769 * k, 0.189 - 0.189 * k, 0],
          [0.349 - 0.349 * k, 0.686 + 0.314 * k, 0.168 - 0.168 * k, 0],
          [0.272 - 0.272 * k, 0.534 - 0.534 * k, 0.131 + 0.869 * k, 0],
          [0, 0, 0, 1],
        ], bias: .zero)
    case .invert:
      return ColorMatrix64(
        rows: [[-1, 0, 0, 0], [0, -1, 0, 0], [0, 0, -1, 0], [0, 0, 0, 1]], bias: [1, 1, 1, 0])
    }
  }
}

extension Filter.Effect {
  var defaultName: String {
    switch self {
    case .gaussianBlur: "gaussianBlur"
    case .colorControls: "colorControls"
    case .colorMatrix: "colorMatrix"
    case .hueRotation: "hueRotation"
    case .sepia: "sepia"
    case .invert: "invert"
    }
  }
}

/// A colour matrix in Double, for composing filters before narrowing once to Float.
struct ColorMatrix64 {
  var rows: [SIMD4<Double>]
  var bias: SIMD4<Double>

  static let identity = ColorMatrix64(rows: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], bias: .zero)

  /// `self` applied after `first`: M·(F·c + f) + b.
  func after(_ first: ColorMatrix64) -> ColorMatrix64 {
    var out = ColorMatrix64.identity
    for i in 0..<4 {
      var row = SIMD4<Double>.zero
      for j in 0..<4 {
        row[j] = (0..<4).reduce(0) { $0 + rows[i][$1] * first.rows[$1][j] }
      }
      out.rows[i] = row
      out.bias[i] = (0..<4).reduce(0) { $0 + rows[i][$1] * first.bias[$1] } + bias[i]
    }
    return out
  }

  var float: ColorMatrix {
    func f(_ v: SIMD4<Double>) -> SIMD4<Float> { SIMD4(Float(v.x), Float(v.y), Float(v.z), Float(v.w)) }
    return ColorMatrix(r: f(rows[0]), g: f(rows[1]), b: f(rows[2]), a: f(rows[3]), bias: f(bias))
  }
}
