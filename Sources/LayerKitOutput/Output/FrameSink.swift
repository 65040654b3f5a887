import Foundation
import LayerKit
import LayerKitMedia

#if canImport(Glibc)
  import Glibc
#endif

/// An opaque colour in 8-bit sRGB: what formats without alpha composite frames over.
public struct BackgroundColor: Sendable, Equatable {
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8
  public init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }
  public static let black = BackgroundColor(red: 0, green: 0, blue: 0)

  var tuple: YUVConversion.Background { (red, green, blue) }
}

/// How frames are encoded, as the command line's options pass them through.
public struct EncodingOptions: Sendable {
  /// `--pix-fmt`: yuv420p (default for Y4M, MP4, WebM) or yuv444p, or any ffmpeg pixel format
  /// (converted by ffmpeg).
  public var pixelFormat: String?
  public var codec: String?
  public var crf: Int?
  public var preset: String?
  public var background: BackgroundColor = .black
  /// Replace the frames of a folder that already holds some.
  public var overwrite = false
  /// Extra ffmpeg inputs and an audio filter graph (see `AudioMix`); nil for no audio.
  public var audio: AudioMix?
  /// Where a partial render's frames belong (`--shard`, `--frames`): recorded in MKV, Y4M and
  /// PNG-folder outputs for `layerkit join` to check.
  public var part: PartRecord?
  /// The Y'CbCr matrix of a Y4M output's planes; nil for the one its readers assume for its size
  /// (`YCbCrMatrix.untagged`: BT.601 up to 1024 × 576). Tagged formats are BT.709.
  public var y4mMatrix: YCbCrMatrix?
  /// A smart render's encoded stretch (`SmartRender`): the encoder's arguments (codec, profile,
  /// level, pixel format, quality, colour tags, IDR pictures forced) in place of the format's,
  /// the frames written alone, without sound, to be cut and spliced between the copied ones.
  var stretch: [String]?
  /// A smart render's: how the stretches between the copied ones are encoded, decided with the
  /// plan from the clips' streams (their codec, and the arguments that match them:
  /// `SmartPlan.stretchArguments`); nil where nothing is copied.
  public package(set) var smartStretches: SmartStretchEncoding?
  /// ffmpeg output options after the format's own (editly's `customOutputArgs`): a later value
  /// of an option wins, so `-crf`, `-preset` or `-c:v` given here replace LayerKit's.
  public var customArguments: [String] = []

  public init() {}
}

/// How a smart render encodes the stretches it does not copy: in the clips' codec, with
/// arguments that match their streams (profile, level, pixel format, colour tags).
public struct SmartStretchEncoding: Sendable, Equatable {
  /// The clips' codec (`h264`, `hevc`): the copied packets' and the encoded stretches'.
  public let codec: String
  /// The encoder's arguments for the stretches.
  public let arguments: [String]
  /// The clips' Y'CbCr matrix, which the output keeps: BT.709, or BT.601 for SD clips that do not
  /// say theirs (players take BT.601 for their size; the output stays untagged like them).
  public let matrix: YCbCrMatrix

  package init(codec: String, arguments: [String], matrix: YCbCrMatrix = .bt709) {
    self.codec = codec
    self.arguments = arguments
    self.matrix = matrix
  }
}

/// A stage's output for one frame: what the sink writes, in order (chunks, so that planes passed
/// through are written as they are, not copied behind a header).
package typealias PreparedFrame = [FrameChunk]

/// Bytes a sink writes: an array, or planes passed through.
package enum FrameChunk: Sendable, ContiguousBytes {
  case bytes([UInt8])
  case planes(YUVPlanes)

  package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    switch self {
    case .bytes(let bytes): try bytes.withUnsafeBytes(body)
    case .planes(let planes): try planes.withUnsafeBytes(body)
    }
  }
}

/// A frame as the pipeline carries it from its source to the sink.
public enum VideoFrame: Sendable {
  /// Rendered pixels (premultiplied RGBA), converted or compressed by the sink.
  case image(Image)
  /// Y'CbCr planes in the sink's layout (`FrameSource.willWrite(planes:)`), written as they are.
  case planes(YUVPlanes)
  /// Two frames' planes mixed byte by byte by the sink's workers at `progress` (0 is the first):
  /// a crossfade computed in the output's format (`YUVPlanes.crossfade`).
  case crossfade(YUVPlanes, YUVPlanes, progress: Double)
  /// A slide between two pictures' 4:4:4 planes, computed into the sink's layout by its workers.
  case slide(PlanarSlide)
  /// A frame worked out by the sink's workers, several at once, rather than on the thread that
  /// renders: a Ken Burns still magnified in the planes (`PlanarZoom`), a title laid over
  /// planes, the crossfades and slides between such pictures.
  case deferred(@Sendable () -> VideoFrame)

  /// Equal for the same frame repeated (a still held on); nil for a mix, made anew each time.
  var id: UInt64? {
    switch self {
    case .image(let image): image.id
    case .planes(let planes): planes.id
    case .crossfade, .slide, .deferred: nil
    }
  }

  /// The frame as RGBA (for a contact sheet, or a sink that takes no planes).
  /// - Throws: `MediaError` when planes cannot be made into an image (a size Image refuses).
  public func image() throws(MediaError) -> Image {
    switch self {
    case .image(let image): return image
    case .planes(let planes): return try planes.image()
    case .crossfade(let a, _, _):
      return try mixed(a.layout).image()
    case .slide(let slide):
      let a = slide.from.layout
      return try mixed(YUVFrameLayout(width: a.width, height: a.height, chroma: .yuv444)).image()
    case .deferred(let make):
      return try make().image()
    }
  }

  /// A mix or a slide computed into planes of `layout`.
  private func mixed(_ layout: YUVFrameLayout) throws(MediaError) -> YUVPlanes {
    var result: Result<Bool, MediaError> = .success(true)
    let planes = YUVPlanes(layout: layout) { buffer in
      result = Result { () throws(MediaError) in try writePlanes(layout, background: (0, 0, 0), into: buffer) }
    }
    guard try result.get() else { throw .bufferSizeMismatch(expected: layout.byteCount, actual: 0) }
    return planes
  }

  /// Writes the frame's planes into `buffer` (`layout.byteCount` bytes), converting an image
  /// over `background`. False when the frame's planes are of another layout.
  func writePlanes(
    _ layout: YUVFrameLayout, background: YUVConversion.Background, into buffer: UnsafeMutableRawBufferPointer
  ) throws(MediaError) -> Bool {
    switch self {
    case .image(let image):
      try YUVConversion.convert(image, background: background, chroma: layout.chroma, into: buffer)
    case .planes(let planes):
      guard planes.layout == layout else { return false }
      planes.withUnsafeBytes { buffer.copyMemory(from: $0) }
    case .crossfade(let a, let b, let t):
      guard a.layout == layout, b.layout == layout else { return false }
      YUVPlanes.crossfade(a, b, progress: t, into: buffer)
    case .slide(let slide):
      guard slide.from.layout.width == layout.width, slide.from.layout.height == layout.height else { return false }
      slide.write(layout, into: buffer)
    case .deferred(let make):
      return try make().writePlanes(layout, background: background, into: buffer)
    }
    return true
  }

  /// The frame's planes in `layout` as one chunk (planes passed through are not copied).
  func planes(_ layout: YUVFrameLayout, background: YUVConversion.Background) throws(MediaError) -> FrameChunk {
    if case .planes(let planes) = self, planes.layout == layout { return .planes(planes) }
    if case .deferred(let make) = self { return try make().planes(layout, background: background) }
    var result: Result<Bool, MediaError> = .success(true)
    let bytes = FrameMemory.bytes(count: layout.byteCount) { buffer in
      result = Result { () throws(MediaError) in
        try writePlanes(layout, background: background, into: UnsafeMutableRawBufferPointer(buffer))
      }
    }
    if try result.get() { return .bytes(bytes) }
    return try VideoFrame.image(try image()).planes(layout, background: background)
  }
}

/// The last stages of the pipeline. `prepare` runs on worker threads, several frames at once
/// (colour conversion, PNG compression); `write` runs on one thread, in frame order (the pipe to
/// the encoder, the file). `finish` makes the output appear under its name; `abort` stops any
/// encoder and leaves nothing under the target's name.
protocol FrameSink: AnyObject, Sendable {
  func prepare(_ frame: VideoFrame, index: Int) throws -> PreparedFrame
  func write(_ frame: PreparedFrame, index: Int) throws
  func finish() throws
  func abort()
  /// From any thread: frees a writer blocked inside `write` (by stopping an encoder), touching
  /// no file. `abort` follows once every stage has ended.
  func interrupt()
}

extension FrameSink {
  func interrupt() {}
}

/// Makes the sink for a target.
func makeSink(_ plan: OutputPlan, width: Int, height: Int, rate: FrameRate) throws -> FrameSink {
  let (target, options) = (plan.target, plan.options)
  // A size the pixel format cannot store is refused before anything is opened.
  _ = try plan.frameSize(width: width, height: height, pad: false)
  switch target.format {
  case .png:
    guard case .folder(let folder) = target.kind else { throw VideoError.unknownFormat(path: target.displayPath) }
    return try PNGFolderSink(folder: folder, overwrite: options.overwrite, part: options.part)
  case .y4m:
    return try Y4MSink(
      target: target, width: width, height: height, rate: rate, chroma: plan.planes ?? .yuv420,
      matrix: plan.matrix(width: width, height: height), background: options.background, part: options.part)
  default:
    return try FFmpegSink(plan: plan, width: width, height: height, rate: rate)
  }
}

extension ChromaSubsampling {
  /// yuv420p → 4:2:0, yuv444p → 4:4:4: the pixel formats LayerKit converts to itself.
  init(pixelFormat: String, for format: VideoFormat) throws(VideoError) {
    switch pixelFormat {
    case "yuv420p": self = .yuv420
    case "yuv444p": self = .yuv444
    default:
      throw .pixelFormatUnavailable(pixelFormat: pixelFormat, format: format.rawValue)
    }
  }

  /// ffmpeg's name of the planar 8-bit format.
  var pixelFormatName: String { self == .yuv420 ? "yuv420p" : "yuv444p" }
}

/// Premultiplied RGBA over an opaque colour: `c + bg · (255 − a) / 255`, rounded; alpha 255.
func composited(_ image: Image, over bg: BackgroundColor) -> [UInt8] {
  var out = image.pixels
  out.withUnsafeMutableBufferPointer { p in
    let b = (UInt32(bg.red), UInt32(bg.green), UInt32(bg.blue))
    var i = 0
    while i < p.count {
      let inverse = 255 - UInt32(p[i + 3])
      if inverse != 0 {
        p[i] = UInt8(min(255, UInt32(p[i]) + (b.0 * inverse + 127) / 255))
        p[i + 1] = UInt8(min(255, UInt32(p[i + 1]) + (b.1 * inverse + 127) / 255))
        p[i + 2] = UInt8(min(255, UInt32(p[i + 2]) + (b.2 * inverse + 127) / 255))
        p[i + 3] = 255
      }
      i += 4
    }
  }
  return out
}

/// Numbered PNG frames in a folder: `frame_00000.png`, … by the frame's number in the whole
/// video. Compression (a fast zlib level) runs on the worker threads, so a sequence is not bound
/// by one thread of deflate; each file is written atomically.
package final class PNGFolderSink: FrameSink, @unchecked Sendable {
  let folder: String
  /// The frame files written so far, removed again by `abort()`.
  private let written = Locked([String]())
  private let createdFolder: Bool
  private let part: PartRecord?

  static func frameName(_ index: Int) -> String { String(format: "frame_%05d.png", index) }

  init(folder: String, overwrite: Bool, part: PartRecord? = nil) throws {
    self.folder = folder
    self.part = part
    let manager = FileManager.default
    var isDir: ObjCBool = false
    if manager.fileExists(atPath: folder, isDirectory: &isDir) {
      let stale = try PNGFolderSink.frames(in: folder)
      if !stale.isEmpty {
        guard overwrite else { throw VideoError.folderNotEmpty(path: folder, frames: stale.count) }
        for name in stale { unlink((folder as NSString).appendingPathComponent(name)) }
      }
      unlink((folder as NSString).appendingPathComponent(PartRecord.fileName))
      createdFolder = false
    } else {
      do {
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
      } catch {
        throw VideoError.unwritableOutput(path: folder, reason: "cannot create the folder")
      }
      createdFolder = true
      // A stop that cannot wait for `abort()` (`EmergencyStop`: a signal while a frame is stuck
      // being drawn) removes the folder this render made, after the frames in it.
      EmergencyStop.add(temporary: folder)
    }
    guard access(folder, W_OK) == 0 else {
      if createdFolder { release() }
      throw VideoError.unwritableOutput(path: folder, reason: "the folder is not writable")
    }
  }

  /// The frame files (`frame_*.png`) in a folder, sorted.
  package static func frames(in folder: String) throws -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      throw VideoError.unwritableOutput(path: folder, reason: "cannot list the folder")
    }
    return names.filter { $0.hasPrefix("frame_") && $0.hasSuffix(".png") }.sorted()
  }

  func prepare(_ frame: VideoFrame, index: Int) throws -> PreparedFrame {
    [.bytes([UInt8](try ImageFile.encodePNG(try frame.image(), compression: .fast)))]
  }

  func write(_ frame: PreparedFrame, index: Int) throws {
    let path = (folder as NSString).appendingPathComponent(PNGFolderSink.frameName(index))
    // One chunk (the PNG) is written as it is; more are joined first.
    if frame.count == 1 {
      try FileIO.writeAtomically(frame[0], to: path)
    } else {
      try FileIO.writeAtomically(frame.flatMap { chunk in chunk.withUnsafeBytes { [UInt8]($0) } }, to: path)
    }
    // Until the render ends, a written frame is removed by an emergency stop too.
    written.withLock {
      $0.append(path)
      EmergencyStop.add(temporary: path)
    }
  }

  /// A part's record goes in last, so a folder with one holds all its frames.
  func finish() throws {
    if let part {
      try FileIO.writeAtomically(
        Array("\(part)\n".utf8), to: (folder as NSString).appendingPathComponent(PartRecord.fileName))
    }
    release()
  }

  func abort() {
    written.withLock { written in
      unlink((folder as NSString).appendingPathComponent(PartRecord.fileName))
      for path in written { unlink(path) }
    }
    if createdFolder { rmdir(folder) }
    release()
  }

  /// The frames and the folder are the render's own from now on: an emergency stop leaves them.
  private func release() {
    written.withLock { written in
      for path in written { EmergencyStop.remove(temporary: path) }
      written.removeAll()
    }
    if createdFolder { EmergencyStop.remove(temporary: folder) }
  }
}

/// Bytes to an output target that is one stream: a file (through a temporary file renamed on
/// success), a device or FIFO (written through), or standard output.
package final class ByteSink: @unchecked Sendable {
  private let fd: Int32
  private let temporary: TemporaryFile?
  private let displayPath: String

  package init(target: OutputTarget) throws(VideoError) {
    displayPath = target.displayPath
    switch target.kind {
    case .standardOutput:
      fd = 1
      temporary = nil
    case .writeThrough(let path):
      let d = open(path, O_WRONLY | O_CLOEXEC)
      guard d >= 0 else { throw .unwritableOutput(path: path, reason: String(cString: strerror(errno))) }
      fd = d
      temporary = nil
    case .file(let path):
      let t = try TemporaryFile(beside: path)
      temporary = t
      fd = t.descriptor
    case .folder(let path):
      throw .unwritableOutput(path: path, reason: "a folder holds PNG frames, not \(target.format.rawValue)")
    }
  }

  package func write(_ bytes: [UInt8]) throws(VideoError) {
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(VideoError) in try write(buffer) }
    }
    try result.get()
  }

  func write(_ buffer: UnsafeRawBufferPointer) throws(VideoError) {
    try writeAll(fd, buffer, path: displayPath)
  }

  package func finish() throws(VideoError) {
    if let temporary {
      try temporary.commit()
    } else if fd != 1 {
      close(fd)
    }
  }

  package func abort() {
    if let temporary { temporary.discard() } else if fd != 1 { close(fd) }
  }
}

/// YUV4MPEG2 written by LayerKit (`Y4MWriter`): BT.709 (BT.601 up to 1024 × 576, the matrix a
/// reader assumes there), limited range, 4:2:0 (centre-sited,
/// `C420jpeg`) or 4:4:4, to a file (through a temporary file), a device or FIFO, or standard
/// output. The header goes out when the sink is made, so an empty video is still a valid stream.
final class Y4MSink: FrameSink, @unchecked Sendable {
  private let out: ByteSink
  private let writer: Y4MWriter
  /// A part's first frame line: `FRAME XLAYERKIT_PART=…` (ffmpeg reads frame lines of up to 80
  /// bytes and skips their parameters), with the frame's index.
  private let partLine: (index: Int, line: [UInt8])?

  init(
    target: OutputTarget, width: Int, height: Int, rate: FrameRate, chroma: ChromaSubsampling,
    matrix: YCbCrMatrix, background: BackgroundColor, part: PartRecord? = nil
  ) throws {
    partLine = part.map { ($0.frames.lowerBound, Array("FRAME X\(PartRecord.tag)=\($0)\n".utf8)) }
    writer = try Y4MWriter(
      width: width, height: height, frameRate: rate, chroma: chroma, background: background.tuple, matrix: matrix)
    out = try ByteSink(target: target)
    do {
      try out.write([UInt8](writer.header))
    } catch {
      out.abort()
      throw error
    }
  }

  /// `FRAME` and the planes: converted or mixed straight into the one buffer that is written, or
  /// passed through behind the frame line.
  func prepare(_ frame: VideoFrame, index: Int) throws -> PreparedFrame {
    // Planes in BT.709 pass through as they are where the file is BT.709; at SD sizes they are
    // re-expressed in BT.601, the matrix a reader assumes (Y4MWriter).
    if case .planes(let planes) = frame, planes.layout == writer.layout, writer.rematrix == nil {
      return [.bytes(Y4MSink.frameLine), .planes(planes)]
    }
    var failure: Error?
    let bytes = FrameMemory.bytes(count: writer.frameByteCount) { buffer in
      let marker = Y4MSink.frameLine.count
      buffer.baseAddress!.initialize(from: Y4MSink.frameLine, count: marker)
      do {
        let body = UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[marker...]))
        if case .image(let image) = frame {
          try writer.encodeFrame(image, into: UnsafeMutableRawBufferPointer(buffer))
        } else if try frame.writePlanes(writer.layout, background: writer.background, into: body) {
          writer.rematrix?.apply(body, layout: writer.layout)
        } else {
          try writer.encodeFrame(try frame.image(), into: UnsafeMutableRawBufferPointer(buffer))
        }
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    return [.bytes(bytes)]
  }

  private static let frameLine = [UInt8](Y4MWriter.frameHeader)

  func write(_ frame: PreparedFrame, index: Int) throws {
    // Every prepared frame starts with the plain frame line; a part's first one carries the record.
    var skip = 0
    if let partLine, partLine.index == index {
      try out.write(partLine.line)
      skip = Y4MSink.frameLine.count
    }
    for chunk in frame {
      let result = chunk.withUnsafeBytes { buffer in
        let dropped = min(skip, buffer.count)
        skip -= dropped
        return Result { () throws(VideoError) in try out.write(UnsafeRawBufferPointer(rebasing: buffer[dropped...])) }
      }
      try result.get()
    }
  }

  func finish() throws { try out.finish() }

  func abort() { out.abort() }
}
