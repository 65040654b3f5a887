import Foundation
import LayerKit
import LayerKitTesting
import XCTest

@testable import LayerKitMedia

#if canImport(Glibc)
  import Glibc
#endif

final class FrameRateTests: XCTestCase {
  func testDecimalRates() throws {
    let cases: [(Double, Int, Int)] = [
      (30, 30, 1), (25, 25, 1), (60, 60, 1), (24, 24, 1), (1, 1, 1),
      (29.97, 30000, 1001), (23.976, 24000, 1001), (23.98, 24000, 1001), (59.94, 60000, 1001),
      (119.88, 120000, 1001), (14.985, 15000, 1001),
      (12.5, 25, 2), (7.2, 36, 5), (0.5, 1, 2), (1.0 / 3, 1, 3), (3.14159, 355, 113), (29.5, 59, 2),
    ]
    for (fps, n, d) in cases {
      let rate = try FrameRate(fps)
      XCTAssertEqual([rate.numerator, rate.denominator], [n, d], "\(fps)")
    }
    XCTAssertEqual(try FrameRate(29.97).description, "30000/1001")
    XCTAssertEqual(try FrameRate(29.97).framesPerSecond, 30000.0 / 1001, accuracy: 1e-12)
  }

  func testInvalidRates() {
    for fps in [0, -1, -29.97, .nan, .infinity, 2_000_000, 1e-5] {
      do {
        _ = try FrameRate(fps)
        XCTFail("\(fps) accepted")
      } catch {
        guard case .invalidFrameRate = error else { return XCTFail("\(error)") }
      }
    }
    assertThrows(.invalidFrameRate(value: "0/1")) { () throws(MediaError) in try FrameRate(numerator: 0, denominator: 1)
    }
    assertThrows(.invalidFrameRate(value: "30/0")) { () throws(MediaError) in
      try FrameRate(numerator: 30, denominator: 0)
    }
  }

  func testFractionsAreReduced() throws {
    let r = try FrameRate(numerator: 60, denominator: 2)
    XCTAssertEqual([r.numerator, r.denominator], [30, 1])
    XCTAssertEqual(try FrameRate(numerator: 60000, denominator: 2002), try FrameRate(29.97))
  }
}

final class Y4MTests: XCTestCase {
  private var temp: URL!

  override func setUpWithError() throws {
    temp = FileManager.default.temporaryDirectory.appendingPathComponent("LayerKitMediaTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: temp)
  }

  /// Opaque frame `index` of a little test clip: a moving gradient.
  private func frame(_ w: Int, _ h: Int, _ index: Int, alpha: UInt8 = 255) -> Image {
    var px: [UInt8] = []
    px.reserveCapacity(w * h * 4)
    for y in 0..<h {
      for x in 0..<w {
        let c = [(x * 7 + index * 13) % 256, (y * 5 + index * 3) % 256, (x * y + index) % 256]
        px += c.map { UInt8($0 * Int(alpha) / 255) } + [alpha]
      }
    }
    return try! Image(width: w, height: h, pixels: px)
  }

  private func stream(_ writer: Y4MWriter, _ frames: [Image]) throws -> Data {
    var data = writer.header
    for f in frames { data += try writer.encodeFrame(f) }
    return data
  }

  private func y4m(_ header: String, frames: [[UInt8]] = []) -> Data {
    var d = Data(header.utf8)
    for f in frames { d += Data("FRAME\n".utf8) + Data(f) }
    return d
  }

  // MARK: Writer

  func testHeaderText() throws {
    let h420 = Y4MWriter.header(width: 1920, height: 1080, frameRate: try FrameRate(29.97), chroma: .yuv420)
    XCTAssertEqual(
      String(decoding: h420, as: UTF8.self),
      "YUV4MPEG2 W1920 H1080 F30000:1001 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED XLAYERKIT_MATRIX=BT709\n")
    let h444 = Y4MWriter.header(width: 8, height: 6, frameRate: try FrameRate(25), chroma: .yuv444)
    XCTAssertEqual(
      String(decoding: h444, as: UTF8.self),
      "YUV4MPEG2 W8 H6 F25:1 Ip A1:1 C444 XCOLORRANGE=LIMITED XLAYERKIT_MATRIX=BT709\n")
    XCTAssertEqual(Y4MWriter.frameHeader, Data("FRAME\n".utf8))
  }

  /// ffmpeg 5.1 refuses header lines over 95 bytes: the matrix tag goes when it would not fit,
  /// and the rest always fits.
  func testHeaderFitsFFmpegsLimit() throws {
    let rates = [try FrameRate(120000.0 / 1001), try FrameRate(numerator: 2_147_483_647, denominator: 2_147_483_646)]
    for (w, h) in [(3840, 2160), (16384, 16384), (2, 2)] {
      for rate in rates {
        for chroma in [ChromaSubsampling.yuv420, .yuv444] {
          let line = Y4MWriter.header(width: w, height: h, frameRate: rate, chroma: chroma)
          XCTAssertLessThanOrEqual(line.count - 1, Y4MWriter.maxFFmpegHeaderLength, "\(w)×\(h) \(rate)")
        }
      }
    }
    let uhd = Y4MWriter.header(width: 3840, height: 2160, frameRate: rates[0], chroma: .yuv420)
    XCTAssertEqual(uhd.count - 1, 94)
    XCTAssertTrue(String(decoding: uhd, as: UTF8.self).contains("XLAYERKIT_MATRIX=BT709"))
    let huge = Y4MWriter.header(width: 16384, height: 16384, frameRate: rates[0], chroma: .yuv420)
    XCTAssertFalse(String(decoding: huge, as: UTF8.self).contains("XLAYERKIT_MATRIX"))
    XCTAssertTrue(String(decoding: huge, as: UTF8.self).hasSuffix(" C420jpeg XCOLORRANGE=LIMITED\n"))
  }

  func testFrameIsMarkerThenPlanes() throws {
    let writer = try Y4MWriter(
      width: 6, height: 4, frameRate: try FrameRate(30), chroma: .yuv420, background: (1, 2, 3))
    let image = frame(6, 4, 0, alpha: 100)
    let encoded = try writer.encodeFrame(image)
    XCTAssertEqual(encoded.count, writer.frameByteCount)
    XCTAssertEqual(writer.frameByteCount, 6 + 36)
    XCTAssertEqual(Array(encoded.prefix(6)), Array("FRAME\n".utf8))
    XCTAssertEqual(
      Array(encoded.dropFirst(6)), try YUVConversion.convert(image, background: (1, 2, 3), chroma: .yuv420))
  }

  func testWriterChecksSizes() throws {
    let rate = try FrameRate(30)
    assertThrows(.oddSizeForChromaSubsampling(width: 5, height: 4)) { () throws(MediaError) in
      try Y4MWriter(width: 5, height: 4, frameRate: rate, chroma: .yuv420)
    }
    XCTAssertNoThrow(try Y4MWriter(width: 5, height: 3, frameRate: rate, chroma: .yuv444))
    assertThrows(.tooLarge(path: "<memory>", width: 0, height: 4)) { () throws(MediaError) in
      try Y4MWriter(width: 0, height: 4, frameRate: rate, chroma: .yuv444)
    }
    let writer = try Y4MWriter(width: 4, height: 4, frameRate: rate, chroma: .yuv420)
    assertThrows(.sizeMismatch(expectedWidth: 4, expectedHeight: 4, actualWidth: 6, actualHeight: 4)) {
      () throws(MediaError) in
      try writer.encodeFrame(self.frame(6, 4, 0))
    }
    var buffer = [UInt8](repeating: 0, count: writer.frameByteCount + 1)
    assertThrowsAny(.bufferSizeMismatch(expected: writer.frameByteCount, actual: writer.frameByteCount + 1)) {
      try buffer.withUnsafeMutableBytes { b in try writer.encodeFrame(self.frame(4, 4, 0), into: b) }
    }
  }

  // MARK: Reader

  func testRoundTripFromMemory() throws {
    for chroma in [ChromaSubsampling.yuv420, .yuv444] {
      let writer = try Y4MWriter(width: 10, height: 6, frameRate: try FrameRate(23.976), chroma: chroma)
      let images = (0..<3).map { frame(10, 6, $0) }
      let reader = try Y4MReader(data: try stream(writer, images), name: "clip.y4m")
      XCTAssertEqual(reader.header.width, 10)
      XCTAssertEqual(reader.header.height, 6)
      XCTAssertEqual(reader.header.frameRate, try FrameRate(numerator: 24000, denominator: 1001))
      XCTAssertEqual(reader.header.chroma, chroma)
      XCTAssertEqual(reader.header.colorSpace, chroma == .yuv420 ? "420jpeg" : "444")
      XCTAssertEqual(reader.header.interlacing, "p")
      XCTAssertEqual(reader.header.pixelAspect, "1:1")
      XCTAssertEqual(reader.header.colorRange, .limited)
      XCTAssertTrue(reader.header.extensions.contains("LAYERKIT_MATRIX=BT709"))
      XCTAssertEqual(reader.headerLine, writer.header)
      for (i, image) in images.enumerated() {
        XCTAssertEqual(try reader.readFrame(), try YUVConversion.convert(image, chroma: chroma), "frame \(i)")
        XCTAssertEqual(reader.framesRead, i + 1)
      }
      XCTAssertNil(try reader.readFrame())
      XCTAssertNil(try reader.readFrame(), "the end stays the end")
    }
  }

  /// Frames larger than the 64 KiB read-ahead buffer, streamed from a file.
  func testStreamsFromAFile() throws {
    let writer = try Y4MWriter(width: 320, height: 240, frameRate: try FrameRate(30), chroma: .yuv420)
    let images = (0..<4).map { frame(320, 240, $0) }
    let url = temp.appendingPathComponent("clip.y4m")
    try stream(writer, images).write(to: url)
    let reader = try Y4MReader(path: url.path)
    XCTAssertEqual(reader.header.layout, writer.layout)
    var buffer = [UInt8](repeating: 0, count: writer.layout.byteCount)
    for image in images {
      let got = try buffer.withUnsafeMutableBytes { b in try reader.readFrame(into: b) }
      XCTAssertTrue(got)
      XCTAssertEqual(buffer, try YUVConversion.convert(image, chroma: .yuv420))
    }
    XCTAssertFalse(try buffer.withUnsafeMutableBytes { b in try reader.readFrame(into: b) })
    var wrong = [UInt8](repeating: 0, count: 5)
    assertThrowsAny(.bufferSizeMismatch(expected: writer.layout.byteCount, actual: 5)) {
      _ = try wrong.withUnsafeMutableBytes { b in try reader.readFrame(into: b) }
    }
  }

  /// A pipe delivering the stream in odd-sized pieces: header, frame lines and planes all split
  /// across reads.
  func testReadsFromAPipeInPieces() throws {
    let writer = try Y4MWriter(width: 64, height: 32, frameRate: try FrameRate(50), chroma: .yuv444)
    let images = (0..<5).map { frame(64, 32, $0) }
    let data = try stream(writer, images)
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    let writeEnd = fds[1]
    let feeder = Thread {
      data.withUnsafeBytes { raw in
        var offset = 0
        var step = 1
        while offset < raw.count {
          let n = min(step, raw.count - offset)
          _ = write(writeEnd, raw.baseAddress! + offset, n)
          offset += n
          step = step % 997 + 7
        }
      }
      close(writeEnd)
    }
    feeder.start()
    defer { close(fds[0]) }
    let reader = try Y4MReader(fileDescriptor: fds[0], name: "<pipe>")
    XCTAssertEqual(reader.header.frameRate.numerator, 50)
    let frames = try reader.readAllFrames()
    XCTAssertEqual(frames.count, 5)
    for (got, image) in zip(frames, images) { XCTAssertEqual(got, try YUVConversion.convert(image, chroma: .yuv444)) }
  }

  func testAcceptedVariants() throws {
    // Every 4:2:0 siting, odd sizes (chroma rounds up), no C (4:2:0 by default), unknown tags,
    // extra spaces, frame parameters.
    for c in ["C420jpeg", "C420mpeg2", "C420paldv", "C420", ""] {
      let frame = [UInt8](0..<27)
      let reader = try Y4MReader(data: y4m("YUV4MPEG2 W5 H3 F25:1 \(c) Zsomething  XFOO=1\n", frames: [frame, frame]))
      XCTAssertEqual(reader.header.chroma, .yuv420, c)
      XCTAssertEqual(reader.header.layout.byteCount, 27)
      XCTAssertEqual(reader.header.colorSpace, c.isEmpty ? "420jpeg" : String(c.dropFirst()))
      XCTAssertEqual(reader.header.extensions, ["FOO=1"])
      XCTAssertNil(reader.header.colorRange)
      XCTAssertEqual(try reader.readAllFrames(), [frame, frame])
    }
    var data = Data("YUV4MPEG2 W2 H1 F30000:1001 C444 XCOLORRANGE=FULL\nFRAME Ixyz\n".utf8) + Data([1, 2, 3, 4, 5, 6])
    data += Data("FRAME\n".utf8) + Data([6, 5, 4, 3, 2, 1])
    let reader = try Y4MReader(data: data)
    XCTAssertEqual(reader.header.colorRange, .full)
    XCTAssertEqual(try reader.readAllFrames(), [[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]])
    // A stream with a header and no frames is valid and empty.
    XCTAssertNil(try Y4MReader(data: y4m("YUV4MPEG2 W2 H2 F1:1\n")).readFrame())
  }

  func testMalformedHeaders() {
    func expect(_ header: String, _ check: (MediaError) -> Bool, line: UInt = #line) {
      do {
        _ = try Y4MReader(data: Data(header.utf8), name: "bad.y4m")
        XCTFail("accepted \(header.debugDescription)", line: line)
      } catch {
        XCTAssertTrue(check(error), "\(header.debugDescription): \(error)", line: line)
      }
    }
    func corrupt(_ e: MediaError) -> Bool { if case .corrupt(path: "bad.y4m", _) = e { true } else { false } }
    func unsupported(_ e: MediaError) -> Bool {
      if case .unsupportedFormat(path: "bad.y4m", _) = e { true } else { false }
    }
    expect("", corrupt)
    expect("YUV4MPEG2 H2 F30:1\n", corrupt)  // no W
    expect("YUV4MPEG2 W2 F30:1\n", corrupt)  // no H
    expect("YUV4MPEG2 W2 H2\n", corrupt)  // no F
    expect("YUV4MPEG2 W0 H2 F30:1\n", corrupt)
    expect("YUV4MPEG2 W-2 H2 F30:1\n", corrupt)
    expect("YUV4MPEG2 Wabc H2 F30:1\n", corrupt)
    expect("YUV4MPEG2 W2 H2 F30\n", corrupt)
    expect("YUV4MPEG2 W2 H2 F0:1\n", corrupt)
    expect("YUV4MPEG2 W2 H2 F30:0\n", corrupt)
    expect("YUV4MPEG2 W2 H2 F30:1:1\n", corrupt)
    expect("YUV4MPEG2 W2 H2 F30:1 C" + String(repeating: "x", count: 5000) + "\n", corrupt)
    expect("YUV4MPEG2 W2 H2 F30:1 C422\n", unsupported)
    expect("YUV4MPEG2 W2 H2 F30:1 Cmono\n", unsupported)
    expect("YUV4MPEG2 W2 H2 F30:1 C444alpha\n", unsupported)
    expect("YUV4MPEG2 W2 H2 F30:1 C420p10\n", unsupported)
    expect("YUV4MPEG3 W2 H2 F30:1\n", unsupported)
    expect("YUV4MPEG2W2 H2 F30:1\n", unsupported)
    expect("hello world\n", unsupported)
    expect("YUV4MPEG2 W2 H2 F30:1", { $0 == .truncated(path: "bad.y4m") })
    expect("YUV4M", { $0 == .truncated(path: "bad.y4m") })
    expect("YUV4MPEG2 W99999 H2 F30:1\n", { $0 == .tooLarge(path: "bad.y4m", width: 99999, height: 2) })
    expect("YUV4MPEG2 W10000 H10000 F30:1\n", { $0 == .tooLarge(path: "bad.y4m", width: 10000, height: 10000) })
    do {
      _ = try Y4MReader(data: try Fixture.data("rgb8.png"), name: "bad.y4m")
      XCTFail("PNG read as Y4M")
    } catch {
      guard case .unsupportedFormat(_, let reason) = error as? MediaError else { return XCTFail("\(error)") }
      XCTAssertTrue(reason.contains("PNG"), reason)
    }
  }

  func testMalformedFrames() throws {
    let header = "YUV4MPEG2 W2 H2 F30:1 C420jpeg\n"
    let good = [UInt8](repeating: 9, count: 6)
    func read(_ data: Data) throws(MediaError) -> [[UInt8]] {
      try Y4MReader(data: data, name: "f.y4m").readAllFrames()
    }
    assertThrows(.truncated(path: "f.y4m")) { () throws(MediaError) in
      try read(y4m(header, frames: [good, Array(good.prefix(5))]))
    }
    assertThrows(.truncated(path: "f.y4m")) { () throws(MediaError) in
      try read(y4m(header, frames: [good]) + Data("FRA".utf8))
    }
    assertThrows(.truncated(path: "f.y4m")) { () throws(MediaError) in
      try read(y4m(header, frames: [good]) + Data("FRAME".utf8))
    }
    for bad in ["FRAMX\n", "FRAMES\n", "\n", "frame\n"] {
      do {
        _ = try read(y4m(header, frames: [good]) + Data(bad.utf8) + Data(good))
        XCTFail("accepted \(bad.debugDescription)")
      } catch {
        guard case .corrupt(path: "f.y4m", let reason) = error else { return XCTFail("\(error)") }
        XCTAssertTrue(reason.contains("frame 2"), reason)
      }
    }
    // Garbage instead of a frame line: no newline for a long way.
    let garbage = y4m(header, frames: [good]) + Data(repeating: 0x41, count: 5000)
    do {
      _ = try read(garbage)
      XCTFail("accepted garbage")
    } catch {
      guard case .corrupt = error else { return XCTFail("\(error)") }
    }
    // The frames before the damage were read.
    let reader = try Y4MReader(data: y4m(header, frames: [good]) + Data("FRAMX\n".utf8))
    XCTAssertEqual(try reader.readFrame(), good)
    XCTAssertThrowsError(try reader.readFrame())
  }

  func testFileErrors() {
    let missing = temp.appendingPathComponent("nope.y4m").path
    assertThrows(.fileNotFound(path: missing)) { () throws(MediaError) in try Y4MReader(path: missing) }
    do {
      _ = try Y4MReader(path: temp.path)
      XCTFail("read a folder")
    } catch {
      guard case .unreadable(let path, _) = error else { return XCTFail("\(error)") }
      XCTAssertEqual(path, temp.path)
    }
    let truncated = temp.appendingPathComponent("cut.y4m")
    try? Data("YUV4MPEG2 W4 H4 F30:1\nFRAME\n".utf8).write(to: truncated)
    do {
      let reader = try Y4MReader(path: truncated.path)
      assertThrows(.truncated(path: truncated.path)) { () throws(MediaError) in try reader.readFrame() }
    } catch {
      XCTFail("\(error)")
    }
  }

  // MARK: ffmpeg cross-checks

  /// Runs /usr/bin/ffmpeg (or ffprobe) quietly and returns its standard output; skips the test
  /// where it is not installed.
  private func ffmpeg(_ arguments: [String], program: String = "ffmpeg") throws -> Data {
    let ffmpeg = "/usr/bin/\(program)"
    guard FileManager.default.isExecutableFile(atPath: ffmpeg) else { throw XCTSkip("no \(ffmpeg)") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ffmpeg)
    process.arguments = ["-hide_banner", "-loglevel", "error"] + (program == "ffmpeg" ? ["-nostdin"] : []) + arguments
    let out = temp.appendingPathComponent("ffmpeg-\(UUID().uuidString).out")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    let handle = try FileHandle(forWritingTo: out)
    process.standardOutput = handle
    try process.run()
    process.waitUntilExit()
    try handle.close()
    XCTAssertEqual(process.terminationStatus, 0, "ffmpeg \(arguments.joined(separator: " "))")
    return try Data(contentsOf: out)
  }

  /// ffmpeg's own Y4M muxer writes the same header, tag for tag, except for its `XYSCSS` tag,
  /// which ours leaves out to make room for the matrix tag.
  func testHeaderMatchesFFmpegMuxer() throws {
    for (pixfmt, chroma, yscss) in [
      ("yuv420p", ChromaSubsampling.yuv420, " XYSCSS=420JPEG"), ("yuv444p", .yuv444, " XYSCSS=444"),
    ] {
      let theirs = try ffmpeg([
        "-f", "lavfi", "-i", "color=c=red:size=8x6:rate=30000/1001", "-frames:v", "1",
        "-vf", "setsar=1", "-pix_fmt", pixfmt, "-color_range", "tv", "-f", "yuv4mpegpipe", "-",
      ])
      let theirLine = String(decoding: theirs.prefix { $0 != 0x0A }, as: UTF8.self)
      XCTAssertTrue(theirLine.contains(yscss), theirLine)
      let ours = String(
        decoding: Y4MWriter.header(width: 8, height: 6, frameRate: try FrameRate(29.97), chroma: chroma).dropLast(),
        as: UTF8.self)
      XCTAssertEqual(ours, theirLine.replacingOccurrences(of: yscss, with: "") + " XLAYERKIT_MATRIX=BT709")
    }
  }

  /// ffmpeg reads the longest header line we write (16384×16384 at 120000/1001, 95 bytes once
  /// the matrix tag is dropped... here at a small size with the same number of characters).
  func testFFmpegAcceptsALongHeader() throws {
    // W and H of 5 digits each cost the same bytes as 16384; a 10-digit rate makes the line long.
    let rate = try FrameRate(numerator: 2_147_483_647, denominator: 1_000_000_007)
    let header = Y4MWriter.header(width: 16384, height: 16384, frameRate: rate, chroma: .yuv444)
    let line = String(decoding: header, as: UTF8.self).replacingOccurrences(of: "W16384 H16384", with: "W00004 H00002")
    XCTAssertEqual(header.count, line.utf8.count)
    let url = temp.appendingPathComponent("long.y4m")
    try (Data(line.utf8) + Data("FRAME\n".utf8) + Data(repeating: 128, count: 24)).write(to: url)
    let raw = try ffmpeg(["-i", url.path, "-f", "rawvideo", "-"])
    XCTAssertEqual(raw.count, 24)
  }

  /// ffmpeg demuxes our stream (4:2:0 and 4:4:4) to exactly our planes, and reads the frame rate
  /// and the colour range from the header.
  func testFFmpegReadsOurStream() throws {
    for (chroma, pixfmt) in [(ChromaSubsampling.yuv420, "yuv420p"), (.yuv444, "yuv444p")] {
      let writer = try Y4MWriter(width: 16, height: 8, frameRate: try FrameRate(59.94), chroma: chroma)
      let images = (0..<3).map { frame(16, 8, $0, alpha: 200) }
      let url = temp.appendingPathComponent("ours-\(pixfmt).y4m")
      try stream(writer, images).write(to: url)
      let raw = try ffmpeg(["-i", url.path, "-f", "rawvideo", "-pix_fmt", pixfmt, "-"])
      let expected = try images.flatMap { try YUVConversion.convert($0, chroma: chroma) }
      XCTAssertEqual([UInt8](raw), expected, pixfmt)
      // What ffmpeg makes of the header.
      let probe = String(decoding: try ffmpeg(["-show_streams", url.path], program: "ffprobe"), as: UTF8.self)
      for field in ["pix_fmt=\(pixfmt)", "color_range=tv", "r_frame_rate=60000/1001", "width=16", "height=8"] {
        XCTAssertTrue(probe.contains(field + "\n"), "\(field) in\n\(probe)")
      }
      if chroma == .yuv420 { XCTAssertTrue(probe.contains("chroma_location=center\n"), probe) }
    }
  }

  /// Our reader reads ffmpeg's Y4M output frame for frame as ffmpeg's raw planes.
  func testReaderReadsFFmpegStream() throws {
    for pixfmt in ["yuv420p", "yuv444p"] {
      let source = ["-f", "lavfi", "-i", "testsrc=size=34x22:rate=25", "-frames:v", "4", "-pix_fmt", pixfmt]
      let y4mData = try ffmpeg(source + ["-f", "yuv4mpegpipe", "-"])
      let raw = try ffmpeg(source + ["-f", "rawvideo", "-"])
      let reader = try Y4MReader(data: y4mData, name: "ffmpeg.y4m")
      XCTAssertEqual(reader.header.width, 34)
      XCTAssertEqual(reader.header.frameRate, try FrameRate(25))
      let frames = try reader.readAllFrames()
      XCTAssertEqual(frames.count, 4)
      XCTAssertEqual(frames.flatMap { $0 }, [UInt8](raw), pixfmt)
    }
  }

  /// ffmpeg's swscale, told BT.709 limited range, converts opaque RGB to within 1 of ours at
  /// 4:4:4 (its 15-bit intermediate rounds differently).
  func testConversionAgreesWithSwscale() throws {
    var rng = SeededRandom(seed: 77)
    let (w, h) = (64, 32)
    var rgba: [UInt8] = []
    for _ in 0..<(w * h) {
      rgba += [
        UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng),
        UInt8.random(in: 0...255, using: &rng), 255,
      ]
    }
    let image = try Image(width: w, height: h, pixels: rgba)
    let input = temp.appendingPathComponent("in.rgba")
    try Data(rgba).write(to: input)
    let theirs = [UInt8](
      try ffmpeg([
        "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(w)x\(h)", "-i", input.path,
        "-vf", "scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd+full_chroma_int+bitexact",
        "-pix_fmt", "yuv444p", "-f", "rawvideo", "-",
      ]))
    let ours = try YUVConversion.convert(image, chroma: .yuv444)
    XCTAssertEqual(theirs.count, ours.count)
    let worst = zip(theirs, ours).map { abs(Int($0) - Int($1)) }.max() ?? 99
    XCTAssertLessThanOrEqual(worst, 1)
  }
}
