import Foundation

extension Edit.Placed where Keys == Edit.VideoKeys {
  /// A video layer of `path`, the part from `cutFrom` to `cutTo` seconds of it played.
  public init(path: String, cutFrom: Double? = nil, cutTo: Double? = nil) {
    self.init(Edit.VideoKeys(path: path, cutFrom: cutFrom, cutTo: cutTo))
  }
}

extension Edit.Placed where Keys == Edit.ImageKeys {
  /// An image layer of `path`.
  public init(path: String) { self.init(Edit.ImageKeys(path: path)) }
}
