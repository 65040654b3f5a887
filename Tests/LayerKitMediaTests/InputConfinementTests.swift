import Foundation
import XCTest

@testable import LayerKitMedia

/// Every input ffmpeg and ffprobe open goes the same way: the file protocol alone, a demuxer of
/// LayerKit's list, and the path read as a file's name whatever it begins with.
final class InputConfinementTests: XCTestCase {
  var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-inputs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

  private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// A short clip (MPEG-TS unless `format` says) made by ffmpeg's test source.
  private func clip(_ path: String, format: String = "mpegts") throws {
    let p = try FFmpeg.start(
      try FFmpeg.ffmpeg(),
      [
        "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-t", "1", "-c:v",
        "libx264", "-pix_fmt", "yuv420p", "-f", format, path,
      ], stdin: false, stdout: .discard)
    XCTAssertEqual(p.wait(), 0, p.errorTail())
  }

  func testAFileInputGetsTheFileProtocolTheDemuxerListAndAFileURL() {
    let args = FFmpeg.confiningInputs(["-v", "error", "-ss", "1", "-i", "cache:clip.mp4", "-f", "null", "-"])
    XCTAssertEqual(
      args,
      [
        "-v", "error", "-ss", "1", "-protocol_whitelist", "file", "-format_whitelist",
        FFmpeg.demuxers.joined(separator: ","), "-i", "file:cache:clip.mp4", "-f", "null", "-",
      ])
  }

  func testAGeneratedInputAForcedFormatAndAChosenProtocolAreKeptApart() {
    let args = FFmpeg.confiningInputs([
      "-f", "lavfi", "-i", "anullsrc", "-f", "rawvideo", "-i", "a.raw", "-protocol_whitelist", "pipe", "-i", "pipe:0",
      "-i", "b.wav",
    ])
    XCTAssertEqual(
      args,
      [
        "-f", "lavfi", "-protocol_whitelist", "file,pipe", "-i", "anullsrc",
        // A format LayerKit forces: no demuxer list, the file protocol alone.
        "-f", "rawvideo", "-protocol_whitelist", "file", "-i", "file:a.raw",
        // LayerKit's own pipe, as the call site chose.
        "-protocol_whitelist", "pipe", "-i", "pipe:0",
        "-protocol_whitelist", "file", "-format_whitelist", FFmpeg.demuxers.joined(separator: ","), "-i", "file:b.wav",
      ])
  }

  /// An HLS playlist inside the folder naming a segment outside it: ffprobe alone reads it as
  /// hls and opens the segment; LayerKit refuses it before any segment is opened.
  func testAnHLSPlaylistNamingAFileOutsideIsRefused() throws {
    let outside = FileManager.default.temporaryDirectory.appendingPathComponent(
      "layerkit-outside-\(UUID().uuidString).ts"
    )
    .path
    defer { try? FileManager.default.removeItem(atPath: outside) }
    try clip(outside)
    let playlist = path("show.m3u8")
    try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n\(outside)\n#EXTINF:1,\n/etc/hostname\n#EXT-X-ENDLIST\n"
      .write(toFile: playlist, atomically: true, encoding: .utf8)
    XCTAssertThrowsError(try ClipInfo.probe(playlist)) { error in
      XCTAssertEqual(
        error as? ProcessError,
        .unreadableClip(
          path: playlist,
          reason:
            "an HLS playlist (ffmpeg's hls), which LayerKit does not open: it reads video, sound and picture files, "
            + "never playlists or lists that name other files"))
    }
  }

  func testAnFFconcatListIsRefused() throws {
    try clip(path("a.ts"))
    let list = path("list.ffconcat")
    try "ffconcat version 1.0\nfile a.ts\nfile a.ts\n".write(toFile: list, atomically: true, encoding: .utf8)
    XCTAssertThrowsError(try ClipInfo.probe(list)) { error in
      guard case .unreadableClip(_, let reason)? = error as? ProcessError else { return XCTFail("\(error)") }
      XCTAssertTrue(reason.hasPrefix("an ffconcat list (ffmpeg's concat), which LayerKit does not open"), reason)
    }
    // The clip it lists is read.
    XCTAssertEqual(try ClipInfo.probe(path("a.ts")).width, 64)
  }

  /// A relative path that begins `word:` is a file of that name, not a protocol: read through
  /// the probe and the decoder from the working folder.
  func testAPathThatLooksLikeAProtocolIsAFile() throws {
    try clip(path("cache:clip.mp4"), format: "mp4")
    let previous = FileManager.default.currentDirectoryPath
    XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder.path))
    defer { FileManager.default.changeCurrentDirectoryPath(previous) }
    let info = try ClipInfo.probe("cache:clip.mp4")
    XCTAssertEqual(info.width, 64)
    XCTAssertEqual(try FFmpeg.countFrames("cache:clip.mp4"), 10)
    let decoder = ClipDecoder(info, lastFrame: 9)
    defer { decoder.stop() }
    XCTAssertEqual(try decoder.frame(index: 9).width, 64)
  }
}
