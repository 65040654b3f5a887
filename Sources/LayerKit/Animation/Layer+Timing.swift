// A layer is a timed object, as CALayer adopts CAMediaTiming: its beginTime, speed and timeOffset
// (and the rest, which a layer's infinite duration makes moot) shape the time its sublayers and
// animations see. They live in `timing`; these forward to it under Core Animation's names, so the
// recipes written for CALayer — pausing a layer (Apple's QA1673), staggered starts — port as
// written, with the scene's time where they read CACurrentMediaTime().

/// A timed object of Core Animation's (CAMediaTiming's adopters: animations and layers): its
/// timing's beginTime, speed and timeOffset under Core Animation's names and types.
public protocol MediaTimed: AnyObject {
  var timing: MediaTiming { get set }
}

extension MediaTimed {
  /// CAMediaTiming's beginTime: when the object's local time starts, in its parent's time.
  public var beginTime: Double {
    get { timing.beginTime }
    set { timing.beginTime = newValue }
  }
  /// CAMediaTiming's speed: how fast local time runs against the parent's (0 pauses); a Float,
  /// as Core Animation's is (`timing.speed` holds it as a Double).
  public var speed: Float {
    get { Float(timing.speed) }
    set { timing.speed = Double(newValue) }
  }
  /// CAMediaTiming's timeOffset: added to the local time.
  public var timeOffset: Double {
    get { timing.timeOffset }
    set { timing.timeOffset = newValue }
  }
}

extension Layer: MediaTimed {
  /// A time in `layer`'s local time space, converted to this layer's (CALayer.convertTime(_:from:)):
  /// up `layer`'s ancestors to the scene's time, then down this layer's. `nil` is the scene's time
  /// itself (the time `Scene.advance(to:)` was given, where Core Animation code reads
  /// CACurrentMediaTime()). Layers of different trees meet at their scenes' times.
  public func convertTime(_ t: Double, from layer: Layer?) -> Double {
    let sceneTime = layer.map { $0.sceneTime(fromLocal: t) } ?? t
    return timing.layerTime(parentTime: parentTime(atRootTime: sceneTime))
  }

  /// A time in this layer's local time space, converted to `layer`'s (CALayer.convertTime(_:to:));
  /// `nil` converts to the scene's time.
  public func convertTime(_ t: Double, to layer: Layer?) -> Double {
    let sceneTime = self.sceneTime(fromLocal: t)
    guard let layer else { return sceneTime }
    return layer.convertTime(sceneTime, from: nil)
  }

  /// The scene's time for a local time of this layer: each layer's
  /// `local = (parent − beginTime) × speed + timeOffset` undone, from this layer up. A paused layer
  /// (speed 0) maps every parent time to one local time; its beginTime stands for them.
  func sceneTime(fromLocal t: Double) -> Double {
    var time = t
    var node: Layer? = self
    while let layer = node {
      let timing = layer.timing
      time = timing.speed == 0 ? timing.beginTime : (time - timing.timeOffset) / timing.speed + timing.beginTime
      node = layer.superlayer
    }
    return time
  }
}
