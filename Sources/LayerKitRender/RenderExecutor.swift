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
  /// A new surface covering `bounds`, every pixel `fill` (premultiplied unorm8); with no fill its
  /// pixels are undefined (the op that made it writes every one).
  func makeSurface(_ bounds: PixelRect, fill: SIMD4<UInt8>?) throws -> Surface
  /// A new surface holding the pixels of `bounds` (inside `source`'s bounds) of `source`.
  func copy(_ bounds: PixelRect, of source: Surface) throws -> Surface
  /// Executes one draw into `target` (RenderList.swift, "Draw colour").
  func draw(_ draw: Draw, into target: Surface, inputs: DrawInputs<Surface>) throws
  /// Writes every pixel of `output` (covering `pass.bounds`, or more) inside `pass.bounds`: the
  /// filter applied to `input` (FilterOperation).
  func filter(_ pass: FilterPass, input: Surface, into output: Surface) throws
  /// Writes every pixel of `output` (covering `pass.bounds`, or more) inside `pass.bounds`: the
  /// effect mixing `from` and `to` (TransitionPass).
  func transition(_ pass: TransitionPass, from: Surface, to: Surface, into output: Surface) throws
  /// A new surface the size of the images: the contents crossfade (TextureSource.crossfade).
  func crossfade(_ fade: ContentsCrossfade, images: RenderList) throws -> Surface
  /// The pixels of `surface`, rows top-down, tightly packed.
  func readBack(_ surface: Surface) throws -> [UInt8]
  /// No later op reads `surface`: its memory may be reused.
  func release(_ surface: Surface)
  /// `surface` outlives this render (the retained-group cache holds it) until it is released.
  func keep(_ surface: Surface)
  /// The groups this backend keeps between renders; the executor manages it.
  var retained: RetainedGroups<Surface> { get set }
  /// After the last op, whether the render succeeded or not.
  func end()
}

extension RenderBackend {
  /// Executes `list` with this backend's primitives: validates it, walks its ops with a stack of
  /// targets, reuses the surfaces of groups drawn by an earlier render with the same ops and
  /// images (RetainedGroups), releases each other surface after the last op that reads it, and
  /// reads back the target.
  /// - Returns: the target's pixels, RGBA8 premultiplied, rows top-down.
  /// - Throws: `RenderError` from validation, and whatever the primitives throw, unchanged.
  public func execute(_ list: RenderList) throws -> [UInt8] {
    try execute(list) { try readBack($0) }
  }

  /// As `execute(_:)`, ending with `read` on the finished target instead of `readBack` (the GPU
  /// starts an asynchronous readback there): `read` runs before any surface is released and
  /// before `end()`.
  public func execute<Result>(_ list: RenderList, readingBackWith read: (Surface) throws -> Result) throws -> Result {
    try list.validate()
    // end() also after a begin that failed halfway (a context made current, some uploads).
    defer { end() }
    try begin(list)
    retained.beginRender(targetPixels: list.width * list.height)
    let plan = list.executionPlan()
    let base = try makeSurface(list.targetRect, fill: RenderMath.unorm8(list.clearColor))
    // The current target is the last of `stack`; finished surfaces are readable by id.
    var stack: [(id: SurfaceID?, surface: Surface)] = [(nil, base)]
    var finished: [SurfaceID: Surface] = [:]
    // Groups being drawn that will be retained at their pop, and surfaces the cache owns.
    var storing: [SurfaceID: RetainedGroups<Surface>.Key] = [:]
    var owned = Set<SurfaceID>()
    // Whether anything has been drawn into the target itself yet.
    var baseTouched = false
    // validate() guarantees every reference resolves to a finished surface.
    func surface(_ id: SurfaceID) -> Surface { finished[id]! }
    // Releases the surfaces op `i` read for the last time (the cache's stay).
    func releaseAfter(_ i: Int) {
      for id in plan.lastReads[i] ?? [] where !owned.contains(id) {
        if let s = finished.removeValue(forKey: id) { release(s) }
      }
    }
    var index = 0
    while index < list.ops.count {
      switch list.ops[index] {
      case .pushGroup(let id, let bounds):
        if let end = plan.retainable[index] {
          let key = RetainedGroups<Surface>.Key(list, group: index, end: end)
          if let hit = retained.surface(for: key) {
            finished[id] = hit
            owned.insert(id)
            index = end + 1
            continue
          }
          storing[id] = key
        }
        stack.append((id, try makeSurface(bounds, fill: .zero)))
      case .popGroup(let id):
        let group = stack.removeLast().surface
        finished[id] = group
        if let key = storing.removeValue(forKey: id) {
          keep(group)
          owned.insert(id)
          for evicted in retained.store(group, for: key, pixels: key.bounds.width * key.bounds.height) {
            release(evicted)
          }
        }
      case .copyBackdrop(let id, let bounds):
        finished[id] = try copy(bounds, of: stack[stack.count - 1].surface)
      case .filter(let pass):
        let output = try makeSurface(pass.bounds, fill: nil)
        try filter(pass, input: surface(pass.input), into: output)
        finished[pass.output] = output
      case .transition(let pass):
        if !baseTouched, stack.count == 1, plan.presentsWhole[index] == true, list.clearColor == .zero {
          // The pass covers the untouched, transparent target and the next op only copies it there
          // (RenderList.executionPlan): the pass writes into the target and the copy is skipped,
          // the same bytes either way.
          try transition(pass, from: surface(pass.from), to: surface(pass.to), into: base)
          baseTouched = true
          releaseAfter(index)
          releaseAfter(index + 1)
          index += 2
          continue
        }
        let output = try makeSurface(pass.bounds, fill: nil)
        try transition(pass, from: surface(pass.from), to: surface(pass.to), into: output)
        finished[pass.output] = output
      case .draw(let d):
        var inputs = DrawInputs<Surface>(
          texture: nil, mask: d.mask.map { surface($0.surface) }, backdrop: d.backdrop.map(surface))
        var fade: Surface?
        switch d.paint {
        case .color, .gradient: break
        case .texture(.image(let id), _): inputs.texture = .image(id)
        case .texture(.surface(let id), _): inputs.texture = .surface(surface(id))
        case .texture(.crossfade(let f), _):
          fade = try crossfade(f, images: list)
          inputs.texture = .surface(fade!)
        }
        try draw(d, into: stack[stack.count - 1].surface, inputs: inputs)
        if stack.count == 1 { baseTouched = true }
        if let fade { release(fade) }
      }
      releaseAfter(index)
      index += 1
    }
    let pixels = try read(base)
    for (id, s) in finished where !owned.contains(id) { release(s) }
    release(base)
    for evicted in retained.endRender() { release(evicted) }
    return pixels
  }
}

/// The surfaces of groups kept between renders: a group whose ops, bounds and images are those of
/// a group an earlier render drew is not drawn again; its surface is reused, pixel for pixel what
/// drawing it would give (the ops are the same, and every backend is deterministic). Only groups
/// that read nothing made outside them, and whose inner surfaces nothing outside reads, are kept
/// (RenderList.executionPlan). Memory is bounded: an entry unused by the last `keepRenders`
/// renders is released, and the entries together hold at most `budget` × the target's pixels
/// (least recently used first out).
public struct RetainedGroups<Surface> {
  /// What identifies a group's pixels: its bounds, its ops, and the identity of every image its
  /// draws read (`Image.id`, in the order the ops name them).
  public struct Key: Hashable {
    let bounds: PixelRect
    let ops: ArraySlice<RenderOp>
    let images: [UInt64]

    init(_ list: RenderList, group: Int, end: Int) {
      guard case .pushGroup(_, let bounds) = list.ops[group] else { preconditionFailure("not a group") }
      self.bounds = bounds
      ops = list.ops[group..<end + 1]
      // The ops name the images by position (and say which side of a crossfade is missing).
      images = ops.flatMap { op -> [UInt64] in
        guard case .draw(let d) = op else { return [] }
        return d.paint.images.map { list[image: $0].id }
      }
    }

    public static func == (a: Key, b: Key) -> Bool {
      a.bounds == b.bounds && a.images == b.images && a.ops.elementsEqual(b.ops)
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(bounds)
      hasher.combine(images)
      hasher.combine(ops.count)
      for op in ops { hasher.combine(op) }
    }
  }

  /// Entries unused by this many most recent renders are released.
  public static var keepRenders: Int { 2 }
  /// The most pixels all entries hold together, in targets' worth.
  public static var budget: Int { 4 }

  private var entries: [Key: (surface: Surface, lastUsed: Int, pixels: Int)] = [:]
  private var render = 0
  private var limit = 0
  private var pixels = 0

  public init() {}

  /// How many groups are kept.
  public var count: Int { entries.count }

  mutating func beginRender(targetPixels: Int) {
    render += 1
    limit = Self.budget * targetPixels
  }

  mutating func surface(for key: Key) -> Surface? {
    guard let entry = entries[key] else { return nil }
    entries[key]?.lastUsed = render
    return entry.surface
  }

  /// Keeps `surface`; returns the surfaces evicted to stay within the budget.
  mutating func store(_ surface: Surface, for key: Key, pixels count: Int) -> [Surface] {
    if let old = entries.updateValue((surface, render, count), forKey: key) {
      pixels -= old.pixels
      pixels += count
      return [old.surface]
    }
    pixels += count
    var evicted: [Surface] = []
    // Entries this render uses stay: the walk may still read them.
    while pixels > limit,
      let oldest = entries.filter({ $0.value.lastUsed < render }).min(by: { $0.value.lastUsed < $1.value.lastUsed })
    {
      evicted.append(oldest.value.surface)
      pixels -= oldest.value.pixels
      entries[oldest.key] = nil
    }
    return evicted
  }

  /// Releases the entries the last `keepRenders` renders did not use.
  mutating func endRender() -> [Surface] {
    let stale = entries.filter { $0.value.lastUsed <= render - Self.keepRenders }
    for (key, entry) in stale {
      pixels -= entry.pixels
      entries[key] = nil
    }
    return stale.map(\.value.surface)
  }

  /// Every entry, to release (a backend going away).
  public mutating func removeAll() -> [Surface] {
    defer {
      entries = [:]
      pixels = 0
    }
    return entries.values.map(\.surface)
  }
}

extension RenderList {
  /// What the executor needs to know ahead of the walk.
  struct ExecutionPlan {
    /// For each op index, the surfaces that op reads for the last time (or makes and nothing
    /// reads): after it, they may be released.
    var lastReads: [Int: [SurfaceID]]
    /// For each pushGroup index whose group may be retained, the index of its popGroup.
    var retainable: [Int: Int]
    /// Transition indices whose output covers the whole target and is read only by the next op,
    /// a draw that puts it there texel for pixel, opaque or not, with nothing else.
    var presentsWhole: [Int: Bool]
  }

  /// The plan of this (valid) list. A group may be retained when no op inside it reads a surface
  /// made before it, and no op after it reads a surface made inside it (other than the group).
  func executionPlan() -> ExecutionPlan {
    var last: [SurfaceID: Int] = [:]
    // Where each surface was made, and the groups open then (their pushGroup indices).
    var made: [SurfaceID: (index: Int, inside: [Int])] = [:]
    var open: [Int] = []
    var spans: [Int: Int] = [:]
    var blocked = Set<Int>()
    func make(_ id: SurfaceID, at index: Int) {
      made[id] = (index, open)
      last[id] = index
    }
    // A read of a surface made before a group that is open now keeps that group out.
    func read(_ id: SurfaceID, at index: Int) {
      last[id] = index
      guard let m = made[id]?.index else { return }
      for push in open where m < push { blocked.insert(push) }
    }
    for (index, op) in ops.enumerated() {
      switch op {
      case .pushGroup(let id, _):
        make(id, at: index)
        open.append(index)
      case .popGroup(let id):
        last[id] = index
        spans[open.removeLast()] = index
      case .copyBackdrop(let id, _):
        make(id, at: index)
      case .filter(let p):
        read(p.input, at: index)
        make(p.output, at: index)
      case .transition(let p):
        read(p.from, at: index)
        read(p.to, at: index)
        make(p.output, at: index)
      case .draw(let d):
        if case .texture(.surface(let id), _) = d.paint { read(id, at: index) }
        if let m = d.mask { read(m.surface, at: index) }
        if let b = d.backdrop { read(b, at: index) }
      }
    }
    // A surface made inside a group and read after its pop keeps that group out (a group's own
    // surface is made at its push, outside itself).
    for (id, m) in made {
      for push in m.inside where last[id]! > spans[push]! { blocked.insert(push) }
    }
    var out: [Int: [SurfaceID]] = [:]
    for (id, index) in last { out[index, default: []].append(id) }
    var whole: [Int: Bool] = [:]
    for (index, op) in ops.enumerated() {
      guard case .transition(let p) = op, p.bounds == targetRect, index + 1 < ops.count, last[p.output] == index + 1,
        case .draw(let d) = ops[index + 1], d.isPlainCopy(of: p.output, covering: targetRect)
      else { continue }
      whole[index] = true
    }
    return ExecutionPlan(
      lastReads: out, retainable: spans.filter { !blocked.contains($0.key) }, presentsWhole: whole)
  }
}

extension Paint {
  /// The images this paint reads: one, two for a crossfade of two, none for a colour or a surface.
  public var images: [ImageID] {
    switch self {
    case .texture(.image(let id), _): [id]
    case .texture(.crossfade(let f), _): [f.from, f.to].compactMap { $0 }
    case .color, .gradient, .texture(.surface, _): []
    }
  }
}

extension Draw {
  /// Whether this draw only puts surface `id` (covering `rect`) onto `rect` texel for pixel:
  /// the whole rectangle, no transform, clip, mask, border, path or blend, full opacity. Over a
  /// transparent target it stores the surface's bytes unchanged.
  func isPlainCopy(of id: SurfaceID, covering rect: PixelRect) -> Bool {
    guard case .texture(.surface(id), let t) = paint else { return false }
    let w = Float(rect.width)
    let h = Float(rect.height)
    return pixelBounds == rect && mapping == .identity && opacity == 1 && clips.isEmpty && mask == nil
      && blendMode == .normal && shape.path == nil && shape.coverage == nil && shape.borderWidth == 0 && shape.rect.cornerRadius == 0
      && shape.rect.bounds == SIMD4(Float(rect.x), Float(rect.y), Float(rect.maxX), Float(rect.maxY))
      && t.scale == SIMD2(1 / w, 1 / h) && t.offset == SIMD2(-Float(rect.x) / w, -Float(rect.y) / h)
  }
}
