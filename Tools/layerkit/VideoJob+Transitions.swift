import Foundation
import LayerKit
import LayerKitVideo

/// Transition SPECs from the command line, read once into `TransitionSpec` and resolved by the
/// library (a `.glsl` file loaded into the GPU).
extension VideoJob {
  /// A transition from its SPEC: `fade`, `push:fromRight`, a built-in effect name, or a `.glsl`
  /// file in the gl-transitions form, each optionally followed by `:NAME=VALUE` parameters.
  func transition(_ spec: TransitionSpec, duration: Double, random: inout SeededRandom) throws -> TimelineTransition {
    try spec.resolve(
      duration: duration, timing: MediaTimingFunction(name: options.timing), shaders: backends.shaders,
      random: &random)
  }
}
