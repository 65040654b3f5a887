import Foundation
import LayerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a Y4M header declares.
public struct Y4MHeader: Sendable, Hashable {
  /// Y4M's levels tag, `XCOLORRANGE=`.
  public enum ColorRange: String, Sendable, Hashable {
    /// 16…235 / 16…240 ("TV").
    case limited = "LIMITED"
    /// 0…255 ("PC", "JPEG").
    case full = "FULL"
  }

  public let width: Int
  public let height: Int
  /// `F<num>:<den>`.
  public let frameRate: FrameRate
  /// The planes' sampling, from `C`: `420jpeg`, `420mpeg2`, `420paldv` and `420` are 4:2:0 (they
  /// differ only in where chroma is sited, which does not change the bytes), `444` is 4:4:4.
  public let chroma: ChromaSubsampling
  /// The `C` value as written (`"420jpeg"` when the header has no `C`, the format's default).
  public let colorSpace: String
  /// The `I` value (`p` progressive, `t` / `b` top / bottom field first, `m` mixed), if present.
  public let interlacing: String?
  /// The `A` value (pixel aspect ratio, `"1:1"`, `"0:0"` for unknown), if present.
  public let pixelAspect: String?
  /// `XCOLORRANGE`, if present and `LIMITED` or `FULL`.
  public let colorRange: ColorRange?
  /// Every `X` tag's value (without the `X`) in header order, `XCOLORRANGE` included:
  /// `["YSCSS=420JPEG", "COLORRANGE=LIMITED", "LAYERKIT_MATRIX=BT709"]`.
  public let extensions: [String]

  /// The byte layout of each frame's planes.
  public var layout: YUVFrameLayout { YUVFrameLayout(width: width, height: height, chroma: chroma) }
  /// The planes' Y'CbCr matrix: `XLAYERKIT_MATRIX`'s, else the one the size implies (as ffmpeg
  /// and players take an untagged stream).
  public var matrix: YCbCrMatrix {
    extensions.lazy.compactMap { e -> YCbCrMatrix? in
      e.hasPrefix("LAYERKIT_MATRIX=") ? YCbCrMatrix(tag: String(e.dropFirst(16))) : nil
    }.first ?? YCbCrMatrix.untagged(width: width, height: height)
  }
}

/// Reads a YUV4MPEG2 ("Y4M") stream frame by frame: from memory, a file or a pipe.
///
/// Accepts what `Y4MWriter` and ffmpeg write: 8-bit 4:2:0 (`C420jpeg`, `C420mpeg2`, `C420paldv`,
/// `C420`, or no `C`) and 4:4:4 (`C444`). `W`, `H` and `F` are required; `I`, `A` and `X` tags are
/// recorded; tags with other letters are skipped, as the format asks. Frame lines may carry
/// parameters (`FRAME Ixx`), which are skipped. Frames come back as their plane bytes, unchanged,
/// so frames can be compared exactly or copied into another stream losslessly.
///
/// Errors name the source (`path`, or the `name` given): `.corrupt` for a header or frame line
/// that does not parse, `.unsupportedFormat` for bytes that are not Y4M or another colour space
/// (`C422`, `Cmono`, `C420p10`, …), `.tooLarge` for a size `Image.validate` refuses, `.truncated`
/// when the data ends inside the header, a frame line or a frame; `.fileNotFound` /
/// `.unreadable` for the file itself.
///
/// Not thread-safe: one reader per thread.
public final class Y4MReader {
  /// The parsed header.
  public let header: Y4MHeader
  /// The header line exactly as read, with its `\n`: for copying a stream's header verbatim or
  /// checking that two streams' headers agree.
  public let headerLine: Data
  /// Whole frames returned so far.
  public private(set) var framesRead = 0
  /// The parameters of the last frame read (`FRAME Ixx XNAME=VALUE` → `["Ixx", "XNAME=VALUE"]`).
  public private(set) var frameParameters: [String] = []

  private let name: String
  private var source: Source

  /// The longest header line accepted; real ones are well under 200 bytes.
  static let maxHeaderLength = 4096
  /// The longest frame line accepted (`FRAME` and its parameters).
  static let maxFrameLineLength = 1024

  private enum Source {
    /// The whole stream in memory, and the read position.
    case memory(Data, offset: Int)
    /// A file descriptor with a read-ahead buffer (`buffer[start..<end]` not yet consumed).
    case file(fd: Int32, owned: Bool, buffer: UnsafeMutableRawBufferPointer, start: Int, end: Int)
  }

  /// Reads the header of a stream held in memory.
  /// - Parameters:
  ///   - data: the whole stream.
  ///   - name: how errors name the source.
  /// - Throws: see the type's documentation.
  public init(data: Data, name: String = "<memory>") throws(MediaError) {
    self.name = name
    self.source = .memory(data, offset: 0)
    (header, headerLine) = try Y4MReader.readHeader(&source, name: name)
  }

  /// Opens the file (or FIFO) at `path` and reads its header; frames are then read from the file
  /// as `readFrame` asks for them, so a stream of any length takes one frame's memory.
  /// - Throws: `.fileNotFound`, `.unreadable` (a folder, no permission, an I/O error), or a format
  ///   error (see the type's documentation), each naming `path`.
  public convenience init(path: String) throws(MediaError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 {
      let e = errno
      if e == ENOENT || e == ENOTDIR { throw .fileNotFound(path: path) }
      throw .unreadable(path: path, reason: FileIO.errorString(e))
    }
    var info = stat()
    if fstat(fd, &info) != 0 {
      let e = errno
      close(fd)
      throw .unreadable(path: path, reason: FileIO.errorString(e))
    }
    if info.st_mode & S_IFMT == S_IFDIR {
      close(fd)
      throw .unreadable(path: path, reason: "it is a directory")
    }
    try self.init(fileDescriptor: fd, name: path, owned: true)
  }

  /// Reads a stream from an open file descriptor (a pipe from a child process, standard input),
  /// starting with its header. The reader does not close `fileDescriptor`; the caller does, after
  /// the reader is gone.
  /// - Throws: `.unreadable` for a read error, or a format error (see the type's documentation),
  ///   each naming `name`.
  public convenience init(fileDescriptor: Int32, name: String) throws(MediaError) {
    try self.init(fileDescriptor: fileDescriptor, name: name, owned: false)
  }

  private init(fileDescriptor fd: Int32, name: String, owned: Bool) throws(MediaError) {
    self.name = name
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    self.source = .file(fd: fd, owned: owned, buffer: buffer, start: 0, end: 0)
    do {
      (header, headerLine) = try Y4MReader.readHeader(&source, name: name)
    } catch {
      // deinit does not run for an object whose initialiser throws before it is complete.
      buffer.deallocate()
      if owned { close(fd) }
      throw error
    }
  }

  deinit {
    if case .file(let fd, let owned, let buffer, _, _) = source {
      buffer.deallocate()
      if owned { close(fd) }
    }
  }

  /// The next frame's planes (`header.layout.byteCount` bytes: Y', Cb, Cr), or nil at the end of
  /// the stream (the data ends right after a whole frame).
  /// - Throws: `.corrupt` when the next line is not a `FRAME` line, `.truncated` when the data
  ///   ends inside a frame line or a frame, `.unreadable` for a read error.
  public func readFrame() throws(MediaError) -> [UInt8]? {
    let count = header.layout.byteCount
    var failure: MediaError?
    var present = false
    let frame = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      do throws(MediaError) {
        present = try readFrame(into: UnsafeMutableRawBufferPointer(buffer))
        initialized = present ? count : 0
      } catch {
        failure = error
        initialized = 0
      }
    }
    if let failure { throw failure }
    return present ? frame : nil
  }

  /// Reads the next frame's planes into `buffer` (exactly `header.layout.byteCount` bytes).
  /// - Returns: false at the end of the stream (nothing written), true when a frame was read.
  /// - Throws: `.bufferSizeMismatch` for a buffer of another size, and as `readFrame()`.
  public func readFrame(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Bool {
    guard buffer.count == header.layout.byteCount else {
      throw .bufferSizeMismatch(expected: header.layout.byteCount, actual: buffer.count)
    }
    let line: [UInt8]
    switch try Y4MReader.readLine(&source, limit: Y4MReader.maxFrameLineLength, name: name) {
    case .end: return false
    case .line(let bytes): line = bytes
    case .unterminated: throw .truncated(path: name)
    case .tooLong(let prefix):
      throw .corrupt(path: name, reason: "frame \(framesRead + 1): \(Y4MReader.describe(prefix)) is not a FRAME line")
    }
    // "FRAME", then nothing or space-separated frame parameters.
    guard line.starts(with: Array("FRAME".utf8)), line.count == 5 || line[5] == UInt8(ascii: " ") else {
      throw .corrupt(path: name, reason: "frame \(framesRead + 1): \(Y4MReader.describe(line)) is not a FRAME line")
    }
    frameParameters =
      line.count > 6 ? line[6...].split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) } : []
    let got = try Y4MReader.readBytes(&source, into: buffer, name: name)
    guard got == buffer.count else { throw .truncated(path: name) }
    framesRead += 1
    return true
  }

  /// Every remaining frame (for tests and small streams; `readFrame()` streams).
  /// - Throws: as `readFrame()`.
  public func readAllFrames() throws(MediaError) -> [[UInt8]] {
    var frames: [[UInt8]] = []
    while let frame = try readFrame() { frames.append(frame) }
    return frames
  }

  // MARK: - Header

  private static func readHeader(_ source: inout Source, name: String) throws(MediaError) -> (Y4MHeader, Data) {
    let magic = Array("YUV4MPEG2".utf8)
    let line: [UInt8]
    switch try readLine(&source, limit: maxHeaderLength, name: name) {
    case .end:
      throw .corrupt(path: name, reason: "the file is empty (0 bytes)")
    case .unterminated(let prefix):
      // A cut-off Y4M header, or something that is not Y4M at all.
      if prefix.starts(with: magic) || magic.starts(with: prefix) { throw .truncated(path: name) }
      throw .unsupportedFormat(path: name, reason: notY4M(prefix))
    case .tooLong(let prefix):
      guard prefix.starts(with: magic) else { throw .unsupportedFormat(path: name, reason: notY4M(prefix)) }
      throw .corrupt(path: name, reason: "the Y4M header line is longer than \(maxHeaderLength) bytes")
    case .line(let bytes):
      line = bytes
    }
    guard line.starts(with: magic), line.count == magic.count || line[magic.count] == UInt8(ascii: " ") else {
      throw .unsupportedFormat(path: name, reason: notY4M(line))
    }
    let header = try parseHeader(line[magic.count...], name: name)
    return (header, Data(line + [UInt8(ascii: "\n")]))
  }

  private static func parseHeader(_ fields: ArraySlice<UInt8>, name: String) throws(MediaError) -> Y4MHeader {
    func bad(_ reason: String) -> MediaError { .corrupt(path: name, reason: "Y4M header: \(reason)") }
    var width: Int?
    var height: Int?
    var rate: FrameRate?
    var colorSpace = "420jpeg"
    var interlacing: String?
    var aspect: String?
    var range: Y4MHeader.ColorRange?
    var extensions: [String] = []
    for token in fields.split(separator: UInt8(ascii: " ")) {
      let tag = token.first!
      let text = String(decoding: token.dropFirst(), as: UTF8.self)
      // As messages quote it: printable text in quotes, anything else (a NUL, junk) in hex.
      let shown = describe(Array(token))
      switch tag {
      case UInt8(ascii: "W"):
        guard let v = positiveInt(text) else { throw bad("\(shown) is not a positive width") }
        width = v
      case UInt8(ascii: "H"):
        guard let v = positiveInt(text) else { throw bad("\(shown) is not a positive height") }
        height = v
      case UInt8(ascii: "F"):
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let n = positiveInt(String(parts[0])), let d = positiveInt(String(parts[1])),
          let r = try? FrameRate(numerator: n, denominator: d)
        else { throw bad("\(shown) is not a frame rate num:den with both positive") }
        rate = r
      case UInt8(ascii: "C"):
        colorSpace = text
      case UInt8(ascii: "I"):
        interlacing = text
      case UInt8(ascii: "A"):
        aspect = text
      case UInt8(ascii: "X"):
        extensions.append(text)
        if text.hasPrefix("COLORRANGE=") { range = Y4MHeader.ColorRange(rawValue: String(text.dropFirst(11))) }
      default:
        break  // unknown tags are to be ignored
      }
    }
    guard let width else { throw bad("no W (width)") }
    guard let height else { throw bad("no H (height)") }
    guard let rate else { throw bad("no F (frame rate)") }
    let chroma: ChromaSubsampling
    switch colorSpace {
    case "420jpeg", "420mpeg2", "420paldv", "420": chroma = .yuv420
    case "444": chroma = .yuv444
    default:
      throw .unsupportedFormat(
        path: name,
        reason: "Y4M colour space \(describe(Array(("C" + colorSpace).utf8))); only 8-bit 4:2:0 and 4:4:4 are read")
    }
    do {
      try Image.validate(width: width, height: height)
    } catch {
      throw .tooLarge(path: name, width: width, height: height)
    }
    return Y4MHeader(
      width: width, height: height, frameRate: rate, chroma: chroma, colorSpace: colorSpace,
      interlacing: interlacing, pixelAspect: aspect, colorRange: range, extensions: extensions)
  }

  /// Decimal digits only (no sign, no spaces), at most 9 of them, above zero.
  private static func positiveInt(_ text: String) -> Int? {
    guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ (48...57).contains($0) }),
      let v = Int(text), v > 0
    else { return nil }
    return v
  }

  private static func notY4M(_ head: [UInt8]) -> String {
    // The line stops at the first `\n`, which PNG's signature contains: compare only that far.
    func looksLike(_ signature: [UInt8]) -> Bool {
      head.count >= 3 && (head.starts(with: signature) || signature.starts(with: head))
    }
    let known = looksLike(Signature.png) ? "PNG" : looksLike(Signature.jpeg) ? "JPEG" : Signature.knownFormat(head)
    if let known { return "the data looks like \(known), not a YUV4MPEG2 stream" }
    return "not a YUV4MPEG2 stream: it starts with \(describe(head))"
  }

  /// Up to 24 bytes for a message: as text when printable, else hex.
  private static func describe(_ bytes: [UInt8]) -> String {
    let head = bytes.prefix(24)
    if head.allSatisfy({ (32...126).contains($0) }) {
      return "\"\(String(decoding: head, as: UTF8.self))\(bytes.count > 24 ? "…" : "")\""
    }
    return head.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " ")
  }

  // MARK: - Bytes

  private enum Line {
    /// The line without its `\n`.
    case line([UInt8])
    /// The data ended before any byte of a line.
    case end
    /// The data ended inside the line (these bytes, no `\n`).
    case unterminated([UInt8])
    /// No `\n` within the limit (the first `limit` bytes).
    case tooLong([UInt8])
  }

  private static func readLine(_ source: inout Source, limit: Int, name: String) throws(MediaError) -> Line {
    switch source {
    case .memory(let data, let offset):
      guard offset < data.count else { return .end }
      let window = data[(data.startIndex + offset)...].prefix(limit + 1)
      guard let newline = window.firstIndex(of: UInt8(ascii: "\n")) else {
        if window.count > limit { return .tooLong(Array(window.prefix(limit))) }
        source = .memory(data, offset: data.count)
        return .unterminated(Array(window))
      }
      let line = Array(data[(data.startIndex + offset)..<newline])
      source = .memory(data, offset: newline - data.startIndex + 1)
      return .line(line)
    case .file(let fd, let owned, let buffer, var start, var end):
      var line: [UInt8] = []
      defer { source = .file(fd: fd, owned: owned, buffer: buffer, start: start, end: end) }
      while true {
        if start == end {
          let n = try fill(fd, buffer, name: name)
          (start, end) = (0, n)
          if n == 0 { return line.isEmpty ? .end : .unterminated(line) }
        }
        let chunk = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
        if let i = chunk.firstIndex(of: UInt8(ascii: "\n")) {
          line.append(contentsOf: chunk[..<i])
          start += i + 1
          if line.count > limit { return .tooLong(Array(line.prefix(limit))) }
          return .line(line)
        }
        line.append(contentsOf: chunk)
        start = end
        if line.count > limit { return .tooLong(Array(line.prefix(limit))) }
      }
    }
  }

  /// Fills `destination` as far as the data goes; returns the bytes copied (fewer only at the
  /// end of the data).
  private static func readBytes(
    _ source: inout Source, into destination: UnsafeMutableRawBufferPointer, name: String
  ) throws(MediaError) -> Int {
    switch source {
    case .memory(let data, let offset):
      let n = min(destination.count, data.count - offset)
      let from = data.startIndex + offset
      data[from..<(from + n)].withUnsafeBytes { destination.copyMemory(from: $0) }
      source = .memory(data, offset: offset + n)
      return n
    case .file(let fd, let owned, let buffer, var start, let end):
      // What is buffered first, then straight from the file into the destination (no copy
      // through the read-ahead buffer for the bulk of a frame).
      let buffered = min(destination.count, end - start)
      if buffered > 0 {
        destination.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: buffered)
        start += buffered
      }
      source = .file(fd: fd, owned: owned, buffer: buffer, start: start, end: end)
      var done = buffered
      while done < destination.count {
        let n = read(fd, destination.baseAddress! + done, destination.count - done)
        if n > 0 {
          done += n
        } else if n == 0 {
          break
        } else if errno != EINTR {
          throw .unreadable(path: name, reason: FileIO.errorString(errno))
        }
      }
      return done
    }
  }

  /// Refills the read-ahead buffer from the file: the bytes read, 0 at the end of the file.
  private static func fill(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, name: String) throws(MediaError) -> Int
  {
    while true {
      let n = read(fd, buffer.baseAddress!, buffer.count)
      if n >= 0 { return n }
      if errno != EINTR { throw .unreadable(path: name, reason: FileIO.errorString(errno)) }
    }
  }
}
