import Foundation
import LayerKit
import LayerKitMedia
import LayerKitOutput

/// A still picture of a video: its size is known up front, its pixels are decoded when a frame
/// first needs them and let go when its item is over, so a slideshow of a thousand photos holds
/// a few in memory, not a thousand.
public struct Still: Sendable {
  public let path: String
  public let width: Int
  public let height: Int
  /// Pixels given in memory (no file behind them).
  private let image: Image?

  /// Reads the file once, to check that it decodes and to learn its size; keeps no pixels.
  /// - Throws: `MediaError` naming the file.
  public init(path: String) throws(MediaError) {
    let image = try ImageFile.read(URL(fileURLWithPath: path))
    self.path = path
    width = image.width
    height = image.height
    self.image = nil
  }

  /// A still whose pixels are already in memory; `name` is how messages call it.
  public init(_ image: Image, name: String) {
    path = name
    width = image.width
    height = image.height
    self.image = image
  }

  /// Whether the pixels come from the file at `path` (not given in memory): only such stills
  /// are the same picture when their paths are.
  public var isFile: Bool { image == nil }

  /// The pixels: decoded again from the file, or the ones given.
  public func load() throws(MediaError) -> Image {
    if let image { return image }
    return try ImageFile.read(URL(fileURLWithPath: path))
  }
}

/// What an item of a video shows: a still image or a clip.
public enum MediaSource: Sendable {
  case image(Still)
  case clip(ClipInfo)

  /// Reads a PNG or JPEG as a still (by its signature); a WebP, BMP, TIFF, SVG, HEIC, AVIF or
  /// one-frame GIF as a still decoded by ffmpeg or libheif (`OtherStills`); anything else (an
  /// animated GIF included) as a clip through ffprobe.
  /// - Throws: `MediaError` for a damaged image, `ProcessError` for a file that is neither.
  /// What a path is when it exists and is not a regular file ("a FIFO", "a directory", …): such
  /// a path is no input (reading it would wait forever or never end).
  public static func irregularKind(_ path: String) -> String? { FileIO.irregularKind(path) }

  public static func open(_ path: String) throws -> MediaSource {
    if let kind = FileIO.irregularKind(path) {
      throw ProcessError.unreadableClip(path: path, reason: "\(kind), not a regular file")
    }
    let head = FileIO.head(path, count: 8)
    if let head, head.starts(with: Signature.png) || head.starts(with: Signature.jpeg) {
      return .image(try Still(path: path))
    }
    if head == nil { throw MediaError.fileNotFound(path: path) }
    if OtherStills.stillFormat(ofFile: path) != nil {
      return .image(Still(try OtherStills.read(path), name: path))
    }
    return .clip(try ClipInfo.probe(path))
  }

  public var path: String {
    switch self {
    case .image(let still): still.path
    case .clip(let info): info.path
    }
  }

  /// Seconds of video, nil for a still.
  public var duration: Double? {
    if case .clip(let info) = self { return info.duration }
    return nil
  }

  public var size: (width: Int, height: Int) {
    switch self {
    case .image(let still): (still.width, still.height)
    case .clip(let info): (info.width, info.height)
    }
  }
}
