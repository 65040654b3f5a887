/// A layer that draws its sublayers `instanceCount` times (CAReplicatorLayer): instance k with
/// `instanceTransform` applied k times about the layer's centre, its animations `k ×
/// instanceDelay` seconds later, and its colours multiplied by `instanceColor` plus k times the
/// colour offsets (each component clamped to 0…1) — the loading-spinner recipe. The instances are
/// built by the model into the RenderList; the backends see plain draws (and, for a colour, a
/// colour matrix).
///
/// `preservesDepth` is kept, and sublayers are flattened into the layer's plane as with a plain
/// layer (Core Animation's default, false); with it set they still are (stated in the porting
/// notes).
open class ReplicatorLayer: Layer {
  /// How many copies of the sublayers are drawn, the original included (CA's default 1).
  open var instanceCount: Int = 1
  /// Applied to instance k − 1 to give instance k, about the layer's centre.
  open var instanceTransform: Transform3D = .identity {
    didSet { didChange("instanceTransform", from: oldValue, to: instanceTransform) }
  }
  /// Seconds each instance's animations run behind the previous instance's.
  open var instanceDelay: Double = 0 {
    didSet { didChange("instanceDelay", from: oldValue, to: instanceDelay) }
  }
  /// Multiplies the first instance's colours (white: unchanged).
  open var instanceColor: Color = .white {
    didSet { didChange("instanceColor", from: oldValue, to: instanceColor) }
  }
  /// Added to the colour multiplier for each instance after the first.
  open var instanceRedOffset: Float = 0
  open var instanceGreenOffset: Float = 0
  open var instanceBlueOffset: Float = 0
  open var instanceAlphaOffset: Float = 0
  /// Kept for ported code; the instances are flattened into the layer's plane either way.
  open var preservesDepth = false

  /// The presented sublayers of instances 1 …, each at its own delay (set on presentation
  /// copies; empty on a model layer, whose instances share its sublayers).
  var instanceSublayers: [[Layer]] = []

  override func copyModelValues(from o: Layer) {
    super.copyModelValues(from: o)
    guard let r = o as? ReplicatorLayer else { return }
    instanceCount = r.instanceCount
    instanceTransform = r.instanceTransform
    instanceDelay = r.instanceDelay
    instanceColor = r.instanceColor
    (instanceRedOffset, instanceGreenOffset, instanceBlueOffset, instanceAlphaOffset) =
      (r.instanceRedOffset, r.instanceGreenOffset, r.instanceBlueOffset, r.instanceAlphaOffset)
    preservesDepth = r.preservesDepth
  }

  /// Instance k's colour multiplier, each component clamped to 0…1.
  func instanceMultiplier(_ k: Int) -> SIMD4<Double> {
    let c = instanceColor
    let offsets = SIMD4(
      Double(instanceRedOffset), Double(instanceGreenOffset), Double(instanceBlueOffset), Double(instanceAlphaOffset))
    let m = SIMD4(c.red, c.green, c.blue, c.alpha) + offsets * Double(k)
    return SIMD4(min(max(m.x, 0), 1), min(max(m.y, 0), 1), min(max(m.z, 0), 1), min(max(m.w, 0), 1))
  }

  /// `instanceTransform` applied k times.
  func instanceTransform(_ k: Int) -> Transform3D {
    var t = Transform3D.identity
    for _ in 0..<k { t = t.concatenating(instanceTransform) }
    return t
  }
}
