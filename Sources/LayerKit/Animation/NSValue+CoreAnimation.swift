import Foundation

// NSValue as older Core Animation code boxes its values for `values`, `fromValue` and `toValue`:
// `NSValue(cgPoint:)`, `NSValue(cgSize:)`, `NSValue(cgRect:)` (UIKit's spellings of Foundation's
// `NSValue(point:)`, `(size:)`, `(rect:)`) and `NSValue(caTransform3D:)`. Animations read them as
// the values they box (AnimationValues.numbers, Transform3D.converted(from:)).

extension NSValue {
  /// UIKit's NSValue(cgPoint:).
  public convenience init(cgPoint point: CGPoint) { self.init(point: point) }
  /// UIKit's NSValue(cgSize:).
  public convenience init(cgSize size: CGSize) { self.init(size: size) }
  /// UIKit's NSValue(cgRect:).
  public convenience init(cgRect rect: CGRect) { self.init(rect: rect) }

  public var cgPointValue: CGPoint { pointValue }
  public var cgSizeValue: CGSize { sizeValue }
  public var cgRectValue: CGRect { rectValue }

  /// Core Animation's NSValue(caTransform3D:): the sixteen entries, row by row.
  public convenience init(caTransform3D t: Transform3D) {
    self.init(bytes: Transform3D.entries(t), objCType: NSValue.transformType)
  }

  /// The transform boxed by `NSValue(caTransform3D:)`; the identity for any other value.
  public var caTransform3DValue: Transform3D { boxedTransform ?? .identity }

  /// The transform this value boxes, if it boxes one.
  var boxedTransform: Transform3D? {
    guard String(cString: objCType) == NSValue.transformType else { return nil }
    var m = [Double](repeating: 0, count: 16)
    m.withUnsafeMutableBytes { getValue($0.baseAddress!) }
    return Transform3D(entries: m)
  }

  /// What a boxed point, size or rect stands for, as numbers (x, y; width, height; x, y, width,
  /// height); nil for anything else.
  var boxedNumbers: [Double]? {
    let type = String(cString: objCType)
    if type.hasPrefix("{CGPoint") { return [pointValue.x, pointValue.y] }
    if type.hasPrefix("{CGSize") { return [sizeValue.width, sizeValue.height] }
    if type.hasPrefix("{CGRect") {
      let r = rectValue
      return [r.origin.x, r.origin.y, r.size.width, r.size.height]
    }
    return nil
  }

  /// A C array of sixteen doubles, the one layout Foundation on Linux boxes besides its own.
  private static let transformType = "[16d]"
}

extension Transform3D {
  /// The sixteen entries, row by row.
  static func entries(_ t: Transform3D) -> [Double] {
    [
      t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43,
      t.m44,
    ]
  }

  init(entries m: [Double]) {
    self.init(
      m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7],
      m31: m[8], m32: m[9], m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15])
  }
}
