import Foundation
import LayerKit

/// What the commands ask of an edit before it is played: the files it names (an output must be
/// none of them), and how many clips it may hold.
extension Edit {
  /// The most clips an edit holds (hours of a slideshow at a few seconds a picture).
  public static let maxClips = 10_000

  /// Every string in the edit that names an existing file — pictures, clips, sound tracks,
  /// subtitles, fonts, shaders, whatever key holds it — for the check that an output never
  /// replaces something the edit reads.
  public var namedFiles: [String] {
    guard let data = try? JSONEncoder().encode(self), let tree = try? JSONSerialization.jsonObject(with: data)
    else { return [] }
    var found: [String] = []
    var seen = Set<String>()
    var stack: [Any] = [tree]
    while let node = stack.popLast() {
      switch node {
      case let s as String:
        if !s.isEmpty, seen.insert(s).inserted, FileManager.default.fileExists(atPath: s) { found.append(s) }
      case let a as [Any]: stack += a
      case let d as [String: Any]: stack += Array(d.values)
      default: break
      }
    }
    return found
  }
}
