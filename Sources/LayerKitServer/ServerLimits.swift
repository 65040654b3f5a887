import Foundation
import LayerKitEdit

/// The bounds a server states and keeps (`--limits NAME=VALUE,…`): how much work one render may
/// ask for, how much one client may hold at once, and how long what it made is kept. An edit past
/// one is refused when it is posted (400 with the JSON path of the field and the limit, 413 for
/// bodies, 429 for counts), and checked again against the render's exact plan before a frame is
/// drawn (clips whose length only their files know); a render past its output size or its wall
/// time is stopped and fails naming the limit.
public struct ServerLimits: Sendable, Equatable {
  /// Pixels of one frame (width × height).
  public var pixels = 3840 * 2160
  /// The longer side of a frame.
  public var side = 4096
  /// Frames a second.
  public var fps = 60.0
  /// Seconds of video.
  public var duration = 600.0
  /// Pixels × frames of one render: ten minutes of 1080p at 30 frames a second.
  public var work = 1920.0 * 1080 * 30 * 600
  /// Bytes of one output; a render whose video grows past it is stopped.
  public var outputBytes = 2 << 30
  /// Seconds one frame may take (a shader that does not end): the render then fails, and if the
  /// frame is stuck inside the renderer the server ends itself to free it (its service manager
  /// starts it again; its other renders go back in the queue).
  public var frameSeconds = 60.0
  /// Seconds one render may take, start to end.
  public var renderSeconds = 3600.0
  /// Renders one client may have queued or rendering.
  public var queued = 200
  /// Renders one client may have rendering at once (across every server on the queue).
  public var running = 2
  /// Times a render is started before it fails (a render that kills its server is not
  /// retried forever).
  public var attempts = 3
  /// Event streams open at once, all clients together, and for one client.
  public var streams = 64
  public var streamsPerClient = 8
  /// Templates one client may keep.
  public var templates = 100
  /// Bytes of an edit once its placeholders are merged.
  public var mergedBytes = 1 << 20
  /// Bytes of all the edits of one batch once merged.
  public var batchBytes = 64 << 20
  /// Rows of one batch.
  public var rows = 1000
  /// Seconds a finished video is kept (`--keep`); then it is removed and its output is `410 Gone`.
  public var keep = 7 * 86400.0

  public init() {}

  /// The names `--limits` takes, with what each sets, in the order they are documented.
  static var names:
    [(name: String, key: WritableKeyPath<ServerLimits, Double>?, whole: WritableKeyPath<ServerLimits, Int>?)]
  {
    [
      ("pixels", nil, \.pixels), ("side", nil, \.side), ("fps", \.fps, nil), ("duration", \.duration, nil),
      ("work", \.work, nil), ("output-bytes", nil, \.outputBytes), ("frame-seconds", \.frameSeconds, nil),
      ("render-seconds", \.renderSeconds, nil),
      ("queued", nil, \.queued), ("running", nil, \.running), ("attempts", nil, \.attempts),
      ("streams", nil, \.streams), ("streams-per-client", nil, \.streamsPerClient), ("templates", nil, \.templates),
      ("merged-bytes", nil, \.mergedBytes), ("batch-bytes", nil, \.batchBytes), ("rows", nil, \.rows),
    ]
  }

  /// `NAME=VALUE,…` read over these limits.
  /// - Throws: a message naming the part at fault.
  public mutating func read(_ text: String) throws(ServerProblem) {
    for part in text.split(separator: ",") where !part.trimmingCharacters(in: .whitespaces).isEmpty {
      let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      guard pair.count == 2, let entry = Self.names.first(where: { $0.name == pair[0] }) else {
        throw ServerProblem(
          "--limits \(part): expected NAME=VALUE with NAME one of \(Self.names.map(\.name).joined(separator: ", "))")
      }
      guard let value = Double(pair[1]), value.isFinite, value > 0 else {
        throw ServerProblem("--limits \(part): expected a number above 0")
      }
      if let key = entry.key {
        self[keyPath: key] = value
      } else if let whole = entry.whole {
        guard value == value.rounded(), value <= Double(Int.max / 2) else {
          throw ServerProblem("--limits \(part): expected a whole number")
        }
        self[keyPath: whole] = Int(value)
      }
    }
  }

  /// The limits as `--limits` reads them (what the server says it keeps).
  public var description: String {
    Self.names.map { entry in
      let value = entry.key.map { Self.number(self[keyPath: $0]) } ?? entry.whole.map { String(self[keyPath: $0]) }!
      return "\(entry.name)=\(value)"
    }.joined(separator: ",")
  }

  static func number(_ n: Double) -> String { n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n) }

  /// A limit an edit goes past: the JSON path of the field (within the edit) and the words.
  public struct Exceeded: Error, Sendable, Equatable {
    public var path: String
    public var message: String
  }

  /// Checks what an edit file says of its size, rate and length before it is queued. Clips
  /// whose length is their file's are counted at their cut where one is given, otherwise left to
  /// the check of the plan (`check(width:height:fps:frames:)`).
  public func check(_ file: EditFile) throws(Exceeded) {
    let edit = file.edit
    if let w = edit.width, w > side { throw Exceeded(path: "width", message: "\(w) pixels; at most \(side) a side") }
    if let h = edit.height, h > side {
      throw Exceeded(path: "height", message: "\(h) pixels; at most \(side) a side")
    }
    if let w = edit.width, let h = edit.height, w * h > pixels {
      throw Exceeded(path: "width", message: "\(w)×\(h) is \(w * h) pixels a frame; at most \(pixels)")
    }
    if let f = edit.fps, f > fps {
      throw Exceeded(path: "fps", message: "\(Self.number(f)) frames a second; at most \(Self.number(fps))")
    }
    var total = 0.0
    for (i, clip) in edit.clips.enumerated() {
      let known = clip.duration ?? clip.layers.lazy.compactMap(Self.cutLength).first ?? edit.defaults?.duration
      let seconds = known ?? 4
      if seconds > duration {
        let at = clip.duration != nil ? "clips[\(i)].duration" : "clips[\(i)]"
        throw Exceeded(
          path: at, message: "\(Self.number(seconds)) s; a render lasts at most \(Self.number(duration)) s")
      }
      total += seconds
    }
    if total > duration {
      throw Exceeded(
        path: "clips", message: "\(Self.number(total)) s in all; a render lasts at most \(Self.number(duration)) s")
    }
    if let w = edit.width, let h = edit.height {
      let asked = Double(w * h) * (edit.fps ?? 25) * total
      if asked > work {
        throw Exceeded(path: "", message: "\(Self.number(asked)) pixels × frames; at most \(Self.number(work))")
      }
    }
  }

  /// A video layer's cut, where both ends are written.
  static func cutLength(_ layer: Edit.Layer) -> Double? {
    guard case .video(let v) = layer, let to = v.cutTo else { return nil }
    return to - (v.cutFrom ?? 0)
  }

  /// Checks a render's plan: its frame size, rate and number of frames.
  public func check(width: Int, height: Int, fps: Double, frames: Int) throws(Exceeded) {
    if max(width, height) > side || width * height > pixels {
      throw Exceeded(path: "", message: "\(width)×\(height) a frame; at most \(pixels) pixels and \(side) a side")
    }
    if fps > self.fps {
      throw Exceeded(path: "fps", message: "\(Self.number(fps)) frames a second; at most \(Self.number(self.fps))")
    }
    let seconds = Double(frames) / max(fps, 1)
    if seconds > duration + 1 / max(fps, 1) {
      throw Exceeded(
        path: "", message: "\(Self.number(seconds.rounded())) s; a render lasts at most \(Self.number(duration)) s")
    }
    let asked = Double(width * height) * Double(frames)
    if asked > work {
      throw Exceeded(path: "", message: "\(Self.number(asked)) pixels × frames; at most \(Self.number(work))")
    }
  }
}

/// Why the server cannot start as configured, in its flags' words.
public struct ServerProblem: Error, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
