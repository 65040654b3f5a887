// The walk over a RenderList's ops, written once for every backend (docs/ARCHITECTURE.md, "The
// backend contract"). The executor owns the target stack, the table of finished surfaces and
// their lifetimes; a backend implements the primitives of `RenderBackend` on surfaces of its own
// (GL textures, CPU byte buffers) and never walks a list itself.

/// What a draw reads besides its own fields, resolved by the executor to the backend's surfaces.
public struct DrawInputs<Surface> {
  /// Where a textured paint reads its texels: one of the list's images, or a finished surface
  /// (a group, a backdrop copy, a filter or transition output, a contents crossfade). nil for a
  /// colour paint.
  public var texture: TextureInput<Surface>?
  /// The surface whose alpha multiplies coverage (`Draw.mask`).
  public var mask: Surface?
  /// The copy of what lies behind, for a blend mode other than `.normal` (`Draw.backdrop`).
  public var backdrop: Surface?
}

/// The texels a textured draw samples.
public enum TextureInput<Surface> {
  case image(ImageID)
  case surface(Surface)
}

/// The primitives of a backend. Each works on the backend's own surfaces: RGBA8 premultiplied
/// images, each covering a `PixelRect` of the target (its texel (i, j) is target pixel
/// (bounds.x + i, bounds.y + j)). The executor calls them in list order on one thread; every
/// list it runs has passed `RenderList.validate()`.
public protocol RenderBackend: AnyObject {
  associatedtype Surface

  /// Before the first op: upload or look up the list's images, make a context current.
  func begin(_ list: RenderList) throws
  /// A new surface covering `bounds`, every pixel `fill` (premultiplied unorm8).
  func makeSurface(_ bounds: PixelRect, fill: SIMD4<UInt8>) throws -> Surface
  /// A new surface holding the pixels of `bounds` (inside `source`'s bounds) of `source`.
  func copy(_ bounds: PixelRect, of source: Surface) throws -> Surface
  /// Executes one draw into `target` (RenderList.swift, "Draw colour").
  func draw(_ draw: Draw, into target: Surface, inputs: DrawInputs<Surface>) throws
  /// A new surface covering `pass.bounds`: the filter applied to `input` (FilterOperation).
  func filter(_ pass: FilterPass, input: Surface) throws -> Surface
  /// A new surface covering `pass.bounds`: the effect mixing `from` and `to` (TransitionPass).
  func transition(_ pass: TransitionPass, from: Surface, to: Surface) throws -> Surface
  /// A new surface the size of the images: the contents crossfade (TextureSource.crossfade).
  func crossfade(_ fade: ContentsCrossfade, images: RenderList) throws -> Surface
  /// The pixels of `surface`, rows top-down, tightly packed.
  func readBack(_ surface: Surface) throws -> [UInt8]
  /// No later op reads `surface`: its memory may be reused.
  func release(_ surface: Surface)
  /// After the last op, whether the render succeeded or not.
  func end()
}

extension RenderBackend {
  /// Executes `list` with this backend's primitives: validates it, walks its ops with a stack of
  /// targets, releases each surface after the last op that reads it, and reads back the target.
  /// - Returns: the target's pixels, RGBA8 premultiplied, rows top-down.
  /// - Throws: `RenderError` from validation, and whatever the primitives throw, unchanged.
  public func execute(_ list: RenderList) throws -> [UInt8] {
    try list.validate()
    try begin(list)
    defer { end() }
    let lastUse = list.lastReads()
    let base = try makeSurface(list.targetRect, fill: RenderMath.unorm8(list.clearColor))
    // The current target is the last of `stack`; finished surfaces are readable by id.
    var stack: [(id: SurfaceID?, surface: Surface)] = [(nil, base)]
    var finished: [SurfaceID: Surface] = [:]
    // validate() guarantees every reference resolves to a finished surface.
    func surface(_ id: SurfaceID) -> Surface { finished[id]! }
    for (index, op) in list.ops.enumerated() {
      switch op {
      case .pushGroup(let id, let bounds):
        stack.append((id, try makeSurface(bounds, fill: .zero)))
      case .popGroup(let id):
        finished[id] = stack.removeLast().surface
      case .copyBackdrop(let id, let bounds):
        finished[id] = try copy(bounds, of: stack[stack.count - 1].surface)
      case .filter(let pass):
        finished[pass.output] = try filter(pass, input: surface(pass.input))
      case .transition(let pass):
        finished[pass.output] = try transition(pass, from: surface(pass.from), to: surface(pass.to))
      case .draw(let d):
        var inputs = DrawInputs<Surface>(
          texture: nil, mask: d.mask.map { surface($0.surface) }, backdrop: d.backdrop.map(surface))
        var fade: Surface?
        switch d.paint {
        case .color: break
        case .texture(.image(let id), _): inputs.texture = .image(id)
        case .texture(.surface(let id), _): inputs.texture = .surface(surface(id))
        case .texture(.crossfade(let f), _):
          fade = try crossfade(f, images: list)
          inputs.texture = .surface(fade!)
        }
        try draw(d, into: stack[stack.count - 1].surface, inputs: inputs)
        if let fade { release(fade) }
      }
      for id in lastUse[index] ?? [] {
        if let s = finished.removeValue(forKey: id) { release(s) }
      }
    }
    let pixels = try readBack(base)
    for s in finished.values { release(s) }
    release(base)
    return pixels
  }
}

extension RenderList {
  /// For each op index, the surfaces that op reads for the last time (or makes and nothing
  /// reads): after it, they may be released.
  func lastReads() -> [Int: [SurfaceID]] {
    var last: [SurfaceID: Int] = [:]
    for (index, op) in ops.enumerated() {
      switch op {
      case .pushGroup: break
      case .popGroup(let id), .copyBackdrop(let id, _): last[id] = index
      case .filter(let p):
        last[p.input] = index
        last[p.output] = index
      case .transition(let p):
        last[p.from] = index
        last[p.to] = index
        last[p.output] = index
      case .draw(let d):
        if case .texture(.surface(let id), _) = d.paint { last[id] = index }
        if let m = d.mask { last[m.surface] = index }
        if let b = d.backdrop { last[b] = index }
      }
    }
    var out: [Int: [SurfaceID]] = [:]
    for (id, index) in last { out[index, default: []].append(id) }
    return out
  }
}
