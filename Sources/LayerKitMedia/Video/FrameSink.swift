import Foundation
import LayerKit

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

  public init() {}
}

/// A stage's output for one frame: what the sink writes.
typealias PreparedFrame = [UInt8]

/// The last stages of the pipeline. `prepare` runs on worker threads, several frames at once
/// (colour conversion, PNG compression); `write` runs on one thread, in frame order (the pipe to
/// the encoder, the file). `finish` makes the output appear under its name; `abort` stops any
/// encoder and leaves nothing under the target's name.
protocol FrameSink: AnyObject, Sendable {
  func prepare(_ image: Image, index: Int) throws -> PreparedFrame
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
func makeSink(
  _ target: OutputTarget, width: Int, height: Int, rate: FrameRate, options: EncodingOptions
) throws -> FrameSink {
  switch target.format {
  case .png:
    guard case .folder(let folder) = target.kind else { throw VideoError.unknownFormat(path: target.displayPath) }
    return try PNGFolderSink(folder: folder, overwrite: options.overwrite)
  case .y4m:
    let chroma = try ChromaSubsampling(pixelFormat: options.pixelFormat ?? "yuv420p", for: .y4m)
    try checkEven(width, height, chroma: chroma)
    return try Y4MSink(
      target: target, width: width, height: height, rate: rate, chroma: chroma, background: options.background)
  default:
    return try FFmpegSink(target: target, width: width, height: height, rate: rate, options: options)
  }
}

extension ChromaSubsampling {
  /// yuv420p → 4:2:0, yuv444p → 4:4:4: the pixel formats LayerKit converts to itself.
  init(pixelFormat: String, for format: VideoFormat) throws(VideoError) {
    switch pixelFormat {
    case "yuv420p": self = .yuv420
    case "yuv444p": self = .yuv444
    default:
      throw .invalidTimeline("--pix-fmt \(pixelFormat) is not available for \(format.rawValue); use yuv420p or yuv444p")
    }
  }

  /// ffmpeg's name of the planar 8-bit format.
  var pixelFormatName: String { self == .yuv420 ? "yuv420p" : "yuv444p" }
}

func checkEven(_ width: Int, _ height: Int, chroma: ChromaSubsampling) throws(VideoError) {
  guard chroma == .yuv420, width % 2 != 0 || height % 2 != 0 else { return }
  throw .oddSize(
    width: width, height: height, suggestedWidth: width + width % 2, suggestedHeight: height + height % 2,
    pixelFormat: chroma.pixelFormatName)
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
final class PNGFolderSink: FrameSink, @unchecked Sendable {
  let folder: String
  private var written: [String] = []
  private let createdFolder: Bool
  private let lock = NSLock()

  static func frameName(_ index: Int) -> String { String(format: "frame_%05d.png", index) }

  init(folder: String, overwrite: Bool) throws {
    self.folder = folder
    let manager = FileManager.default
    var isDir: ObjCBool = false
    if manager.fileExists(atPath: folder, isDirectory: &isDir) {
      let stale = try PNGFolderSink.frames(in: folder)
      if !stale.isEmpty {
        guard overwrite else { throw VideoError.folderNotEmpty(path: folder, frames: stale.count) }
        for name in stale { unlink((folder as NSString).appendingPathComponent(name)) }
      }
      createdFolder = false
    } else {
      do {
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
      } catch {
        throw VideoError.unwritableOutput(path: folder, reason: "cannot create the folder")
      }
      createdFolder = true
    }
    guard access(folder, W_OK) == 0 else {
      throw VideoError.unwritableOutput(path: folder, reason: "the folder is not writable")
    }
  }

  /// The frame files (`frame_*.png`) in a folder, sorted.
  static func frames(in folder: String) throws -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      throw VideoError.unwritableOutput(path: folder, reason: "cannot list the folder")
    }
    return names.filter { $0.hasPrefix("frame_") && $0.hasSuffix(".png") }.sorted()
  }

  func prepare(_ image: Image, index: Int) throws -> PreparedFrame {
    [UInt8](try ImageFile.encodePNG(image, compression: .fast))
  }

  func write(_ frame: PreparedFrame, index: Int) throws {
    let path = (folder as NSString).appendingPathComponent(PNGFolderSink.frameName(index))
    try FileIO.writeAtomically(frame, to: path)
    lock.lock()
    written.append(path)
    lock.unlock()
  }

  func finish() throws {}

  func abort() {
    lock.lock()
    for path in written { unlink(path) }
    written.removeAll()
    lock.unlock()
    if createdFolder { rmdir(folder) }
  }
}

/// Bytes to an output target that is one stream: a file (through a temporary file renamed on
/// success), a device or FIFO (written through), or standard output.
final class ByteSink: @unchecked Sendable {
  private let fd: Int32
  private let temporary: TemporaryFile?
  private let displayPath: String

  init(target: OutputTarget) throws(VideoError) {
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

  func write(_ bytes: [UInt8]) throws(VideoError) {
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(VideoError) in try writeAll(fd, buffer, path: displayPath) }
    }
    try result.get()
  }

  func finish() throws(VideoError) {
    if let temporary {
      try temporary.commit()
    } else if fd != 1 {
      close(fd)
    }
  }

  func abort() {
    if let temporary { temporary.discard() } else if fd != 1 { close(fd) }
  }
}

/// YUV4MPEG2 written by LayerKit (`Y4MWriter`): BT.709, limited range, 4:2:0 (centre-sited,
/// `C420jpeg`) or 4:4:4, to a file (through a temporary file), a device or FIFO, or standard
/// output. The header goes out when the sink is made, so an empty video is still a valid stream.
final class Y4MSink: FrameSink, @unchecked Sendable {
  private let out: ByteSink
  private let writer: Y4MWriter

  init(
    target: OutputTarget, width: Int, height: Int, rate: FrameRate, chroma: ChromaSubsampling,
    background: BackgroundColor
  ) throws {
    writer = try Y4MWriter(width: width, height: height, frameRate: rate, chroma: chroma, background: background.tuple)
    out = try ByteSink(target: target)
    do {
      try out.write([UInt8](writer.header))
    } catch {
      out.abort()
      throw error
    }
  }

  /// `FRAME` and the planes, converted straight into the one buffer that is written.
  func prepare(_ image: Image, index: Int) throws -> PreparedFrame {
    var failure: MediaError?
    let bytes = [UInt8](unsafeUninitializedCapacity: writer.frameByteCount) { buffer, count in
      do throws(MediaError) {
        try writer.encodeFrame(image, into: UnsafeMutableRawBufferPointer(buffer))
      } catch {
        failure = error
      }
      count = buffer.count
    }
    if let failure { throw failure }
    return bytes
  }

  func write(_ frame: PreparedFrame, index: Int) throws { try out.write(frame) }

  func finish() throws { try out.finish() }

  func abort() { out.abort() }
}
