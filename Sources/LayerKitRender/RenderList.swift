// The one contract between the model and the backends (docs/ARCHITECTURE.md). A RenderList is a flat,
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
//    computes a premultiplied colour (below) and blends it source-over onto the current target
//    in the target's 8 bits, as a GL blend unit does on an RGBA8 target: s = round(src × 255)
//    clamped to [0, 255], then dst = min(255, s + round(dst × (255 − s.a) / 255))
//    (RenderMath.blend). Blending the stored bytes keeps heavy overdraw (50 000 translucent
//    particles) within a level of the GPU's, where a Float sum drifts by tens.
// 3. Surfaces: offscreen RGBA8 images, each covering a `PixelRect` of the target (its texel
//    (i, j) holds target pixel (bounds.x + i, bounds.y + j)); ids are unique within a list.
//    - `.pushGroup(id, bounds:)` makes a new transparent surface the current target; draws then
//      write only its pixels (their pixelBounds lie inside it); `.popGroup(id)` returns to the
//      previous target.
//    - `.copyBackdrop(id, bounds:)` copies the current target's pixels inside `bounds` into a new
//      surface (what lies behind, for background filters and blend modes). The bounds lie inside
//      the current target's bounds.
//    - `.filter(pass)` reads one surface and writes a new one (FilterPass).
//    Once finished, a surface may be read by later ops until the end of the list: as a paint
//    (`TextureSource.surface(id)`), as a mask (`Draw.mask`), as a backdrop (`Draw.backdrop`), or as
//    a filter's input. Normalized coordinates of a surface run over its own bounds: uv (0, 0) is
//    the top-left corner of its bounds, (1, 1) the bottom-right.
// 4. A draw with a `blendMode` other than `.normal` does not use source-over: for each pixel it
//    reads dst from its `backdrop` surface (a copy of the current target made just before; exact
//    texel fetch at the pixel) and stores RenderMath.composite(mode, src, dst), replacing the
//    pixel. Pixels the draw does not cover (no coverage, or behind the eye) keep their value,
//    which is also what composite gives for a transparent source. `.plusLighter` is the
//    exception: it blends in place, like source-over, with dst = src + dst per channel, clamped
//    by the store (RenderMath.add; a GL blend unit's glBlendFunc(GL_ONE, GL_ONE)), and needs no
//    backdrop.
// 5. Easy to trip over: a colour matrix with a bias makes colour wherever its output bounds
//    exceed its input (the input reads transparent there); a path shape ignores borderWidth;
//    `copyBackdrop` inside a group copies the group's pixels, not what lies behind the group.
//
// Draw colour (premultiplied), evaluated in exactly this order of Float operations:
//   coverage = coverage(shape) × coverage(clip 0) × coverage(clip 1) × … × mask alpha
//   colour   = paint(q) × (coverage × opacity)
// where q is the pixel centre mapped into the draw's local plane (RenderMath.unproject); a pixel
// whose centre does not map (behind the eye) gets colour 0.

/// A surface of a RenderList: an offscreen image that one op makes (`pushGroup`, `copyBackdrop`,
/// a filter's or a transition's output) and later ops read. Unique within a list; the builder
/// draws them from one counter, so lists built together never need renumbering.
public struct SurfaceID: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
  public var rawValue: Int

  public init(_ rawValue: Int) { self.rawValue = rawValue }
  public init(integerLiteral value: Int) { self.rawValue = value }

  public static func < (a: SurfaceID, b: SurfaceID) -> Bool { a.rawValue < b.rawValue }
  public var description: String { "surface \(rawValue)" }
}

/// An image of a RenderList: the position of the image in `RenderList.images`.
public struct ImageID: Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
  public var index: Int

  public init(_ index: Int) { self.index = index }
  public init(integerLiteral value: Int) { self.index = value }

  public var description: String { "image \(index)" }
}

/// Where a textured paint reads its texels.
public enum TextureSource: Hashable, Sendable {
  /// One of `RenderList.images`.
  case image(ImageID)
  /// A finished surface (group, backdrop copy or filter output); coordinates over its bounds.
  case surface(SurfaceID)
  /// Two images mixed texel by texel (Core Animation's contents crossfade), then sampled as one
  /// image of their size.
  case crossfade(ContentsCrossfade)
}

/// Core Animation's contents crossfade: the texel (i, j) of the mix is
/// RenderMath.crossfade(from texel, to texel, weight), per byte, on the premultiplied bytes; a nil
/// side is transparent. Both images have the same size (one may be nil, not both).
public struct ContentsCrossfade: Hashable, Sendable {
  public var from: ImageID?
  public var to: ImageID?
  /// 0 is `from`, 1 is `to`.
  public var weight: Float

  public init(from: ImageID?, to: ImageID?, weight: Float) {
    self.from = from
    self.to = to
    self.weight = weight
  }
}

/// A mask on a draw: the draw's coverage is multiplied by the alpha of a surface sampled
/// (RenderMath.sampleBilinear) at uv = p × scale + offset, where p is the target pixel centre.
public struct SurfaceMask: Hashable, Sendable {
  public var surface: SurfaceID
  public var transform: TextureTransform

  public init(surface: SurfaceID, transform: TextureTransform) {
    self.surface = surface
    self.transform = transform
  }
}

/// How a draw's colour meets what is behind it: source-over, or one of the blend modes of the
/// W3C Compositing and Blending spec (RenderMath.composite).
public enum BlendMode: String, Hashable, Sendable, CaseIterable {
  case normal
  case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
  case difference, exclusion
  case hue, saturation, color, luminosity
  /// W3C's plus-lighter: co = min(1, cs + cb), ao = min(1, as + ab) on premultiplied colours
  /// (Core Animation's additive compositing, as an emitter's `additive` render mode draws).
  case plusLighter

  /// Whether a draw in this mode reads a copy of what lies behind (`Draw.backdrop`): every mode
  /// but source-over and plus-lighter, which blend in place.
  public var readsBackdrop: Bool { self != .normal && self != .plusLighter }
}

/// A 4×5 colour matrix on unpremultiplied RGBA: out = (r·c, g·c, b·c, a·c) + bias.
public struct ColorMatrix: Hashable, Sendable {
  public var r: SIMD4<Float>
  public var g: SIMD4<Float>
  public var b: SIMD4<Float>
  public var a: SIMD4<Float>
  public var bias: SIMD4<Float>

  public init(
    r: SIMD4<Float>, g: SIMD4<Float>, b: SIMD4<Float>, a: SIMD4<Float>, bias: SIMD4<Float> = .zero
  ) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
    self.bias = bias
  }

  public static let identity = ColorMatrix(r: [1, 0, 0, 0], g: [0, 1, 0, 0], b: [0, 0, 1, 0], a: [0, 0, 0, 1])
}

/// Which way one pass of a separable blur runs.
public enum BlurAxis: Hashable, Sendable {
  case horizontal, vertical
}

/// What a filter pass computes per output pixel from its input surface. Reads outside the
/// input's bounds are transparent (0, 0, 0, 0). Output is stored as unorm8 (RenderMath.unorm8).
public enum FilterOperation: Hashable, Sendable {
  /// One direction of a separable Gaussian: out(p) = Σ weights[|i|] × in(p + i × axis) for
  /// i = −r … r in that order, r = weights.count − 1, with exact texel reads (no filtering).
  case blur(BlurAxis, weights: [Float])
  /// out = premultiply(clamp(M · unpremultiply(in) + bias, 0, 1)) (RenderMath.applyColorMatrix).
  case colorMatrix(ColorMatrix)
  /// out = colour × in.alpha, colour premultiplied (a shadow's shape).
  case tint(SIMD4<Float>)
}

/// A parameter value of a transition effect: the uniform types of the gl-transitions form.
public enum TransitionValue: Hashable, Sendable {
  case float(Float)
  case int(Int32)
  case bool(Bool)
  case vec2(SIMD2<Float>)
  case vec3(SIMD3<Float>)
  case vec4(SIMD4<Float>)
  case ivec2(SIMD2<Int32>)
  /// An image for a `sampler2D` parameter (extra textures of a shader in the gl-transitions form).
  case image(Image)
}

/// A transition step: mixes two surfaces into a new one with a built-in effect.
///
/// `from`, `to` and `output` all cover `bounds`. Effects see the gl-transitions conventions:
/// for the output pixel at target pixel centre p, uv = ((p.x − bounds.x) / width,
/// 1 − (p.y − bounds.y) / height) — (0, 0) is the bottom-left corner, y up —, `ratio` =
/// width / height, and getFromColor(uv) / getToColor(uv) sample the surfaces bilinearly with
/// clamp-to-edge (RenderMath.sampleBilinear) at (uv.x, 1 − uv.y) in the surface's own top-down
/// coordinates. The effect's premultiplied result is stored (no blending), as unorm8.
/// Every effect gives exactly `from` at progress 0 and exactly `to` at progress 1.
public struct TransitionPass: Hashable, Sendable {
  public var from: SurfaceID
  public var to: SurfaceID
  public var output: SurfaceID
  public var bounds: PixelRect
  public var progress: Float
  /// The built-in effect's name: Shaders/transitions/NAME.glsl and TransitionEffects' CPU twin.
  public var effect: String
  /// Values for the effect's uniforms by name; missing ones take the effect's defaults.
  public var parameters: [String: TransitionValue]

  public init(
    from: SurfaceID, to: SurfaceID, output: SurfaceID, bounds: PixelRect, progress: Float, effect: String,
    parameters: [String: TransitionValue] = [:]
  ) {
    self.from = from
    self.to = to
    self.output = output
    self.bounds = bounds
    self.progress = progress
    self.effect = effect
    self.parameters = parameters
  }
}

/// One filter step: reads surface `input`, writes a new surface `output` covering `bounds`.
public struct FilterPass: Hashable, Sendable {
  public var input: SurfaceID
  public var output: SurfaceID
  public var bounds: PixelRect
  public var operation: FilterOperation

  public init(input: SurfaceID, output: SurfaceID, bounds: PixelRect, operation: FilterOperation) {
    self.input = input
    self.output = output
    self.bounds = bounds
    self.operation = operation
  }
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
  /// Multiplies coverage by a surface's alpha.
  public var mask: SurfaceMask?
  /// `.normal` is source-over and `.plusLighter` adds in place; any other mode needs `backdrop`.
  public var blendMode: BlendMode
  /// A surface copied from the current target, covering at least `pixelBounds`, that a
  /// non-normal blend mode reads as what lies behind.
  public var backdrop: SurfaceID?

  public init(
    pixelBounds: PixelRect, mapping: PlaneMapping, shape: Shape, paint: Paint, opacity: Float = 1,
    clips: [Clip] = [], mask: SurfaceMask? = nil, blendMode: BlendMode = .normal, backdrop: SurfaceID? = nil
  ) {
    self.pixelBounds = pixelBounds
    self.mapping = mapping
    self.shape = shape
    self.paint = paint
    self.opacity = opacity
    self.clips = clips
    self.mask = mask
    self.blendMode = blendMode
    self.backdrop = backdrop
  }
}

/// One step of a RenderList.
public enum RenderOp: Hashable, Sendable {
  case draw(Draw)
  /// Start drawing into a new transparent surface covering `bounds`.
  case pushGroup(SurfaceID, bounds: PixelRect)
  /// Finish the group opened by the matching `pushGroup`.
  case popGroup(SurfaceID)
  /// Copy the current target's pixels inside `bounds` into a new surface.
  case copyBackdrop(SurfaceID, bounds: PixelRect)
  /// Make a new surface from an existing one.
  case filter(FilterPass)
  /// Make a new surface from two existing ones with a transition effect.
  case transition(TransitionPass)
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

  /// The image an `ImageID` of this list names.
  public subscript(image id: ImageID) -> Image { images[id.index] }

  /// The target as a pixel rectangle.
  public var targetRect: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

  /// Number of `.draw` operations.
  public var drawCount: Int { ops.reduce(0) { if case .draw = $1 { $0 + 1 } else { $0 } } }

  /// Checks what a backend relies on: a valid target size, draws inside the target with at most
  /// `maxClips` clips, finite numbers, image and group references that resolve, and groups that
  /// nest. Lists built from layers always pass; hand-written ones may not.
  public func validate() throws(RenderError) {
    try RenderList.validateTarget(width: width, height: height)
    var open: [(id: SurfaceID, bounds: PixelRect)] = []
    var finished: [SurfaceID: PixelRect] = [:]
    var seen = Set<SurfaceID>()
    func fail(_ index: Int, _ reason: String) -> RenderError { .malformedList(index: index, reason: reason) }
    func inside(_ r: PixelRect, _ outer: PixelRect) -> Bool {
      !r.isEmpty && r.x >= outer.x && r.y >= outer.y && r.maxX <= outer.maxX && r.maxY <= outer.maxY
    }
    for (index, op) in ops.enumerated() {
      let current = open.last?.bounds ?? targetRect
      switch op {
      case .pushGroup(let id, let bounds):
        guard seen.insert(id).inserted else { throw fail(index, "\(id) made twice") }
        guard inside(bounds, targetRect) else { throw fail(index, "group bounds \(bounds) outside the target") }
        open.append((id, bounds))
      case .popGroup(let id):
        guard let top = open.last, top.id == id else { throw fail(index, "group \(id.rawValue) closed out of order") }
        open.removeLast()
        finished[id] = top.bounds
      case .copyBackdrop(let id, let bounds):
        guard seen.insert(id).inserted else { throw fail(index, "\(id) made twice") }
        guard inside(bounds, current) else { throw fail(index, "backdrop bounds \(bounds) outside the current target") }
        finished[id] = bounds
      case .filter(let pass):
        guard finished[pass.input] != nil else { throw fail(index, "filter input \(pass.input) is not finished") }
        guard seen.insert(pass.output).inserted else { throw fail(index, "\(pass.output) made twice") }
        guard inside(pass.bounds, targetRect) else {
          throw fail(index, "filter bounds \(pass.bounds) outside the target")
        }
        switch pass.operation {
        case .blur(_, let weights):
          guard !weights.isEmpty, weights.count <= RenderList.maxBlurTaps, weights.allSatisfy(\.isFinite) else {
            throw fail(index, "blur needs 1…\(RenderList.maxBlurTaps) finite weights")
          }
        case .colorMatrix(let m):
          guard
            [m.r, m.g, m.b, m.a, m.bias].allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite && $0.w.isFinite }
            )
          else { throw fail(index, "non-finite colour matrix") }
        case .tint(let c):
          guard c.x.isFinite, c.y.isFinite, c.z.isFinite, c.w.isFinite else { throw fail(index, "non-finite tint") }
        }
        finished[pass.output] = pass.bounds
      case .transition(let pass):
        guard finished[pass.from] == pass.bounds, finished[pass.to] == pass.bounds else {
          throw fail(index, "transition inputs must be finished surfaces covering \(pass.bounds)")
        }
        guard seen.insert(pass.output).inserted else { throw fail(index, "\(pass.output) made twice") }
        guard inside(pass.bounds, targetRect) else { throw fail(index, "transition bounds outside the target") }
        guard pass.progress.isFinite else { throw fail(index, "non-finite transition progress") }
        finished[pass.output] = pass.bounds
      case .draw(let d):
        guard inside(d.pixelBounds, current) else {
          throw fail(index, "pixel bounds \(d.pixelBounds) outside the current target \(current)")
        }
        guard d.clips.count <= RenderList.maxClips else {
          throw fail(index, "\(d.clips.count) clips, at most \(RenderList.maxClips)")
        }
        guard d.opacity.isFinite, d.shape.borderWidth.isFinite, d.shape.rect.isFinite,
          d.mapping.isFinite, d.clips.allSatisfy({ $0.rect.isFinite && $0.mapping.isFinite }),
          d.shape.path?.segments.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite && $0.w.isFinite })
            ?? true
        else { throw fail(index, "non-finite number in a draw") }
        if let mask = d.shape.coverage,
          mask.bounds.width < 0 || mask.bounds.height < 0 || mask.bytes.count != mask.bounds.width * mask.bounds.height
        {
          throw fail(index, "a coverage mask has one byte per pixel of its bounds")
        }
        if let path = d.shape.path, path.segments.count > RenderList.maxPathSegments {
          throw fail(index, "\(path.segments.count) path segments, at most \(RenderList.maxPathSegments)")
        }
        switch d.paint {
        case .color(let c):
          guard c.x.isFinite, c.y.isFinite, c.z.isFinite, c.w.isFinite else { throw fail(index, "non-finite colour") }
        case .texture(.image(let i), _):
          guard images.indices.contains(i.index) else { throw fail(index, "no \(i)") }
        case .texture(.surface(let g), _):
          guard finished[g] != nil else { throw fail(index, "\(g) is not finished") }
        case .texture(.crossfade(let f), _):
          let ids = [f.from, f.to].compactMap { $0 }
          guard !ids.isEmpty, ids.allSatisfy({ images.indices.contains($0.index) }) else {
            throw fail(index, "a crossfade needs one or two images of the list")
          }
          let sizes = Set(ids.map { [images[$0.index].width, images[$0.index].height] })
          guard sizes.count == 1, f.weight.isFinite else {
            throw fail(index, "a crossfade mixes images of one size with a finite weight")
          }
        case .gradient(let g):
          guard !g.colors.isEmpty, g.colors.count == g.locations.count, g.colors.count <= Gradient.maxStops,
            g.colors.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite && $0.w.isFinite }),
            g.locations.allSatisfy(\.isFinite), zip(g.locations, g.locations.dropFirst()).allSatisfy({ $0 <= $1 }),
            g.start.x.isFinite, g.start.y.isFinite, g.end.x.isFinite, g.end.y.isFinite
          else {
            throw fail(index, "a gradient has 1 to \(Gradient.maxStops) finite stops at ascending locations")
          }
        }
        if let mask = d.mask, finished[mask.surface] == nil {
          throw fail(index, "mask \(mask.surface) is not finished")
        }
        if d.blendMode.readsBackdrop {
          guard let b = d.backdrop, let bb = finished[b], inside(d.pixelBounds, bb) else {
            throw fail(index, "blend mode \(d.blendMode) needs a finished backdrop covering the draw")
          }
        }
      }
    }
    guard open.isEmpty else { throw fail(ops.count, "groups left open: \(open.map(\.id.rawValue))") }
  }

  /// The most weights of one blur pass (taps on each side plus the centre): a sigma of about 85
  /// pixels; larger blurs are several passes.
  public static let maxBlurTaps = 256

  /// The most segments one path draw carries.
  public static let maxPathSegments = 4096

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

extension RenderList {
  /// This list followed by `overlay`'s ops, drawn over what this list draws (a caption over a
  /// frame, whatever made the frame): `overlay`'s surfaces and images are renumbered after this
  /// list's. Both lists have the same target size; the overlay's clear colour is not used.
  public func appending(_ overlay: RenderList) -> RenderList {
    precondition(overlay.width == width && overlay.height == height, "an overlay covers the same target")
    var maxSurface = -1
    for op in ops {
      switch op {
      case .pushGroup(let id, _), .popGroup(let id), .copyBackdrop(let id, _): maxSurface = max(maxSurface, id.rawValue)
      case .filter(let p): maxSurface = max(maxSurface, p.output.rawValue)
      case .transition(let p): maxSurface = max(maxSurface, p.output.rawValue)
      case .draw: break
      }
    }
    let s = maxSurface + 1
    let i = images.count
    func surface(_ id: SurfaceID) -> SurfaceID { SurfaceID(id.rawValue + s) }
    func image(_ id: ImageID) -> ImageID { ImageID(id.index + i) }
    func moved(_ d: Draw) -> Draw {
      var d = d
      switch d.paint {
      case .texture(.image(let id), let t): d.paint = .texture(.image(image(id)), t)
      case .texture(.surface(let id), let t): d.paint = .texture(.surface(surface(id)), t)
      case .texture(.crossfade(var f), let t):
        f.from = f.from.map(image)
        f.to = f.to.map(image)
        d.paint = .texture(.crossfade(f), t)
      case .color, .gradient: break
      }
      d.mask = d.mask.map { SurfaceMask(surface: surface($0.surface), transform: $0.transform) }
      d.backdrop = d.backdrop.map(surface)
      return d
    }
    var list = self
    list.images += overlay.images
    for op in overlay.ops {
      switch op {
      case .draw(let d): list.ops.append(.draw(moved(d)))
      case .pushGroup(let id, let b): list.ops.append(.pushGroup(surface(id), bounds: b))
      case .popGroup(let id): list.ops.append(.popGroup(surface(id)))
      case .copyBackdrop(let id, let b): list.ops.append(.copyBackdrop(surface(id), bounds: b))
      case .filter(var p):
        (p.input, p.output) = (surface(p.input), surface(p.output))
        list.ops.append(.filter(p))
      case .transition(var p):
        (p.from, p.to, p.output) = (surface(p.from), surface(p.to), surface(p.output))
        list.ops.append(.transition(p))
      }
    }
    return list
  }
}
