import Foundation
import LayerKit

/// LayerKit's keys over the whole edit beside editly's: subtitles and ducking.
extension Edit {
  /// LayerKit's: subtitles burned in, and how they look.
  public struct SubtitleTrack: Codable, Sendable, Equatable {
    public var path: String
    public var fontFamily: String?
    public var fontSize: Double?
    public var textColor: String?
    public var box: String?

    public init(path: String) { self.path = path }
  }

  /// LayerKit's: how far the tracks that are not voices drop (dB) while clips' sound or a voice
  /// plays, and how fast they go down and come back (seconds).
  public struct Ducking: Codable, Sendable, Equatable {
    public var amount: Double
    public var attack: Double?
    public var release: Double?

    public init(amount: Double, attack: Double? = nil, release: Double? = nil) {
      self.amount = amount
      self.attack = attack
      self.release = release
    }
  }
}
