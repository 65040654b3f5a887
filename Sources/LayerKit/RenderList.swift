// The one contract between the model and the backends (DESIGN.md). A RenderList is a flat,
// ordered list of operations on a target of `width × height` pixels; a backend executes it and
// never looks at a Layer. Every rule a backend needs to produce the same pixels as the other one
// is written here and in RenderMath.swift, which the GLSL in Shaders/layer mirrors line by line.
//
// Coordinate spaces:
// - target pixels: origin at the top-left corner of the target, y down; the centre of pixel
//   (i, j) is (i + 0.5, j + 0.5). Row 0 of every image and texture is the top row.
// - local: the plane of one shape (a layer's bounds space), mapped to target pixels by a 3×3
//   homography (`PlaneMapping`), which carries any 3D transform and perspective.
//
// Execution:
// 1. The target starts as `clearColor` (premultiplied) in every pixel.
// 2. Each `.draw` covers exactly the pixels of its `pixelBounds`. For each pixel centre p it
//    computes a premultiplied colour (below) and blends it source-over onto the current
//    target: dst = src + dst × (1 − src.a), then stores round(dst × 255) clamped to [0, 255].
// 3. `.pushGroup(id)` makes a new target of the same size, cleared to transparent, the current
//    one; `.popGroup(id)` returns to the previous target. From then on until the end of the list,
//    a paint may sample the group's pixels through `TextureSource.group(id)`.
//
// Draw colour (premultiplied), evaluated in exactly this order of Float operations:
//   coverage = coverage(shape) × coverage(clip 0) × coverage(clip 1) × …   (left to right)
//   colour   = paint(q) × (coverage × opacity)
// where q is the pixel centre mapped into the draw's local plane (RenderMath.unproject); a pixel
// whose centre does not map (behind the eye) gets colour 0.

/// A whole-pixel rectangle in target pixels.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  public var maxX: Int { x + width }
  public var maxY: Int { y + height }
  public var isEmpty: Bool { width <= 0 || height <= 0 }

  public func intersection(_ o: PixelRect) -> PixelRect {
    let x0 = max(x, o.x)
    let y0 = max(y, o.y)
    let x1 = min(maxX, o.maxX)
    let y1 = min(maxY, o.maxY)
    return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
  }

  public func union(_ o: PixelRect) -> PixelRect {
    if isEmpty { return o }
    if o.isEmpty { return self }
    let x0 = min(x, o.x)
    let y0 = min(y, o.y)
    return PixelRect(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
  }

  public var description: String { "[\(x), \(y), \(width)×\(height)]" }
}

/// A 3×3 matrix acting on column vectors (x, y, 1), stored as three rows.
public struct Matrix3: Hashable, Sendable {
  public var row0: SIMD3<Float>
  public var row1: SIMD3<Float>
  public var row2: SIMD3<Float>

  public init(row0: SIMD3<Float>, row1: SIMD3<Float>, row2: SIMD3<Float>) {
    self.row0 = row0
    self.row1 = row1
    self.row2 = row2
  }

  public static let identity = Matrix3(row0: [1, 0, 0], row1: [0, 1, 0], row2: [0, 0, 1])

  /// `M · v`.
  @inlinable public func apply(_ v: SIMD3<Float>) -> SIMD3<Float> {
    SIMD3((row0 * v).sum(), (row1 * v).sum(), (row2 * v).sum())
  }

  /// The nine entries in column-major order, as `glUniformMatrix3fv` takes them untransposed.
  public var columnMajor: [Float] {
    [row0.x, row1.x, row2.x, row0.y, row1.y, row2.y, row0.z, row1.z, row2.z]
  }
}

/// How a shape's local plane maps to target pixels and back. Both directions are computed once by
/// the model, in Double, so the backends never invert a matrix themselves.
public struct PlaneMapping: Hashable, Sendable {
  /// local (x, y, 1) → target pixels (X, Y, W); the pixel is (X/W, Y/W). W > 0 is in front of the eye.
  public var toTarget: Matrix3
  /// target pixel (px, py, 1) → local (x, y, w); the local point is (x/w, y/w).
  public var fromTarget: Matrix3

  public init(toTarget: Matrix3, fromTarget: Matrix3) {
    self.toTarget = toTarget
    self.fromTarget = fromTarget
  }

  /// Local coordinates are target pixels.
  public static let identity = PlaneMapping(toTarget: .identity, fromTarget: .identity)

  /// Whether both directions are affine: row 2 of each matrix is exactly (0, 0, 1), so the
  /// homogeneous divisor is exactly 1 everywhere and backends may skip the division
  /// (RenderMath.unproject does, bit-for-bit the same result).
  @inlinable public var isAffine: Bool {
    toTarget.row2 == SIMD3(0, 0, 1) && fromTarget.row2 == SIMD3(0, 0, 1)
  }
}

/// A rectangle with rounded corners in a local plane; `bounds` is (minX, minY, maxX, maxY).
public struct RoundedRect: Hashable, Sendable {
  public var bounds: SIMD4<Float>
  /// Corner radius; clamped to half the shorter side when used.
  public var cornerRadius: Float

  public init(bounds: SIMD4<Float>, cornerRadius: Float = 0) {
    self.bounds = bounds
    self.cornerRadius = cornerRadius
  }
}

/// The coverage mask of a draw, in its local plane.
public struct Shape: Hashable, Sendable {
  public var rect: RoundedRect
  /// 0 fills the rounded rectangle; a positive width draws only a ring of that width inside it
  /// (a border: the outer shape minus the shape inset by `borderWidth` with radius
  /// `max(cornerRadius − borderWidth, 0)`).
  public var borderWidth: Float

  public init(rect: RoundedRect, borderWidth: Float = 0) {
    self.rect = rect
    self.borderWidth = borderWidth
  }
}

/// A clip applied to a draw: the draw's coverage is multiplied by this shape's coverage.
public struct Clip: Hashable, Sendable {
  public var mapping: PlaneMapping
  public var rect: RoundedRect

  public init(mapping: PlaneMapping, rect: RoundedRect) {
    self.mapping = mapping
    self.rect = rect
  }
}

/// Where a textured paint reads its texels.
public enum TextureSource: Hashable, Sendable {
  /// `RenderList.images[index]`.
  case image(Int)
  /// The pixels of a group that has been popped earlier in the list (target-sized).
  case group(Int)
}

/// How local coordinates map to normalized texture coordinates: uv = q × scale + offset, where
/// uv (0, 0) is the top-left corner of the texture's top-left texel and (1, 1) the bottom-right
/// corner of its bottom-right texel.
public struct TextureTransform: Hashable, Sendable {
  public var scale: SIMD2<Float>
  public var offset: SIMD2<Float>

  public init(scale: SIMD2<Float>, offset: SIMD2<Float>) {
    self.scale = scale
    self.offset = offset
  }
}

/// What a draw puts down where it covers.
public enum Paint: Hashable, Sendable {
  /// A premultiplied colour.
  case color(SIMD4<Float>)
  /// Texels, sampled bilinearly with clamp-to-edge (RenderMath.sampleBilinear).
  case texture(TextureSource, TextureTransform)
}

/// One textured or coloured, antialiased, optionally clipped shape.
public struct Draw: Hashable, Sendable {
  /// The pixels the draw touches, inside the target; never empty in a built list.
  public var pixelBounds: PixelRect
  public var mapping: PlaneMapping
  public var shape: Shape
  public var paint: Paint
  public var opacity: Float
  /// At most `RenderList.maxClips`, applied as a product of coverages.
  public var clips: [Clip]

  public init(
    pixelBounds: PixelRect, mapping: PlaneMapping, shape: Shape, paint: Paint, opacity: Float = 1,
    clips: [Clip] = []
  ) {
    self.pixelBounds = pixelBounds
    self.mapping = mapping
    self.shape = shape
    self.paint = paint
    self.opacity = opacity
    self.clips = clips
  }
}

/// One step of a RenderList.
public enum RenderOp: Hashable, Sendable {
  case draw(Draw)
  /// Start drawing into a new transparent target-sized group.
  case pushGroup(Int)
  /// Finish the group opened by the matching `pushGroup`.
  case popGroup(Int)
}

/// An ordered list of draw operations for one frame, and everything they reference.
public struct RenderList: Equatable, Sendable {
  /// The most clips one draw carries; deeper clipping nests through groups.
  public static let maxClips = 4

  public var width: Int
  public var height: Int
  /// Premultiplied colour every target pixel starts with.
  public var clearColor: SIMD4<Float>
  public var images: [Image]
  public var ops: [RenderOp]

  public init(
    width: Int, height: Int, clearColor: SIMD4<Float> = .zero, images: [Image] = [],
    ops: [RenderOp] = []
  ) {
    self.width = width
    self.height = height
    self.clearColor = clearColor
    self.images = images
    self.ops = ops
  }

  /// The target as a pixel rectangle.
  public var targetRect: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

  /// Number of `.draw` operations.
  public var drawCount: Int { ops.reduce(0) { if case .draw = $1 { $0 + 1 } else { $0 } } }

  /// Checks what a backend relies on: a valid target size, draws inside the target with at most
  /// `maxClips` clips, finite numbers, image and group references that resolve, and groups that
  /// nest. Lists built from layers always pass; hand-written ones may not.
  public func validate() throws(RenderError) {
    try RenderList.validateTarget(width: width, height: height)
    var open: [Int] = []
    var popped = Set<Int>()
    var seen = Set<Int>()
    for (index, op) in ops.enumerated() {
      switch op {
      case .pushGroup(let id):
        guard seen.insert(id).inserted else { throw .malformedList(index: index, reason: "group \(id) opened twice") }
        open.append(id)
      case .popGroup(let id):
        guard open.last == id else { throw .malformedList(index: index, reason: "group \(id) closed out of order") }
        open.removeLast()
        popped.insert(id)
      case .draw(let d):
        let b = d.pixelBounds
        guard !b.isEmpty, b.x >= 0, b.y >= 0, b.maxX <= width, b.maxY <= height else {
          throw .malformedList(index: index, reason: "pixel bounds \(b) outside the \(width)×\(height) target")
        }
        guard d.clips.count <= RenderList.maxClips else {
          throw .malformedList(index: index, reason: "\(d.clips.count) clips, at most \(RenderList.maxClips)")
        }
        guard d.opacity.isFinite, d.shape.borderWidth.isFinite, d.shape.rect.isFinite,
          d.mapping.isFinite, d.clips.allSatisfy({ $0.rect.isFinite && $0.mapping.isFinite })
        else { throw .malformedList(index: index, reason: "non-finite number in a draw") }
        switch d.paint {
        case .color(let c):
          guard c.x.isFinite, c.y.isFinite, c.z.isFinite, c.w.isFinite else {
            throw .malformedList(index: index, reason: "non-finite colour")
          }
        case .texture(.image(let i), _):
          guard images.indices.contains(i) else { throw .malformedList(index: index, reason: "no image \(i)") }
        case .texture(.group(let g), _):
          guard popped.contains(g) else { throw .malformedList(index: index, reason: "group \(g) is not finished") }
        }
      }
    }
    guard open.isEmpty else { throw .malformedList(index: ops.count, reason: "groups left open: \(open)") }
  }

  /// The largest target side accepted before any backend limit (GL_MAX_TEXTURE_SIZE may be lower).
  public static let maxTargetDimension = 16_384

  /// Checks a target size against the documented bounds.
  public static func validateTarget(width: Int, height: Int) throws(RenderError) {
    guard width > 0, height > 0 else { throw .invalidTargetSize(width: width, height: height) }
    guard width <= maxTargetDimension, height <= maxTargetDimension,
      width * height <= Image.maxPixelCount
    else { throw .targetTooLarge(width: width, height: height, limit: maxTargetDimension) }
  }
}

extension Matrix3 {
  var isFinite: Bool {
    [row0, row1, row2].allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
  }
}

extension PlaneMapping {
  var isFinite: Bool { toTarget.isFinite && fromTarget.isFinite }
}

extension RoundedRect {
  var isFinite: Bool {
    bounds.x.isFinite && bounds.y.isFinite && bounds.z.isFinite && bounds.w.isFinite
      && cornerRadius.isFinite
  }
}
