// GLBackend's programs, each built the first time a render needs it and kept for the backend's
// life: the layer variants, the filters, the contents crossfade, the Y'CbCr packing and the
// built-in transition effects. The context is current wherever these are called (a render's
// begin or draws), except `buildTransitions` and `buildAllPrograms`, which make it current
// themselves.

import CEGL
import LayerKitRender

extension GLBackend {
  func quadProgram(_ variant: LayerQuadVariant) throws(GLError) -> LayerQuadProgram {
    if let quad = quads[variant.index] { return quad }
    let quad = try LayerQuadProgram(context: context, variant: variant)
    quads[variant.index] = quad
    return quad
  }

  func filterProgram(_ kind: FilterKind) throws(GLError) -> FilterProgram {
    if let program = filters[kind] { return program }
    let program = try FilterProgram(context: context, kind: kind)
    filters[kind] = program
    return program
  }

  func crossfade() throws(GLError) -> CrossfadeProgram {
    if let crossfadeProgram { return crossfadeProgram }
    let program = try CrossfadeProgram(context: context)
    crossfadeProgram = program
    return program
  }

  func planar() throws(GLError) -> PlanarPackProgram {
    if let planarProgram { return planarProgram }
    let program = try PlanarPackProgram(context: context)
    planarProgram = program
    return program
  }

  /// The program of transition `effect`: a registered one, or a built-in (built now if this is
  /// its first use); nil for a name that is neither.
  func transitionProgram(_ effect: String) throws(GLError) -> TransitionProgram? {
    if let program = transitions[effect] { return program }
    guard let builtIn = TransitionEffects.all[effect] else { return nil }
    let program = try TransitionProgram(context: context, effect: builtIn)
    transitions[effect] = program
    return program
  }

  /// Builds the built-in effects `list`'s transition passes name that are not built yet.
  func buildTransitions(_ list: RenderList) throws(GLError) {
    var missing: [String] = []
    for op in list.ops {
      guard case .transition(let pass) = op, transitions[pass.effect] == nil,
        TransitionEffects.all[pass.effect] != nil, !missing.contains(pass.effect)
      else { continue }
      missing.append(pass.effect)
    }
    guard !missing.isEmpty else { return }
    try context.makeCurrent()
    defer { context.releaseCurrent() }
    for effect in missing { _ = try transitionProgram(effect) }
  }

  /// Builds every built-in program not built yet.
  func buildAllPrograms() throws(GLError) {
    try context.makeCurrent()
    defer { context.releaseCurrent() }
    for variant in LayerQuadVariant.allCases { _ = try quadProgram(variant) }
    for kind in FilterKind.allCases { _ = try filterProgram(kind) }
    _ = try crossfade()
    _ = try planar()
    for name in TransitionEffects.all.keys.sorted() { _ = try transitionProgram(name) }
  }

  /// Deletes every program built; the context must be current.
  func deletePrograms() {
    for quad in quads.compactMap({ $0 }) { context.delete(quad.program) }
    for filter in filters.values { context.delete(filter.program) }
    for transition in transitions.values { context.delete(transition.program) }
    if let crossfadeProgram { context.delete(crossfadeProgram.program) }
    for program in planarProgram?.programs ?? [] { context.delete(program) }
    quads = [LayerQuadProgram?](repeating: nil, count: LayerQuadVariant.tableSize)
    filters = [:]
    transitions = [:]
    crossfadeProgram = nil
    planarProgram = nil
  }
}
