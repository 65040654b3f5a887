import Foundation
import XCTest

/// A playlist or a list of files given where a clip goes, through `layerkit edit`: refused with
/// its format named, before anything is rendered, so it reaches no file it names.
final class PlaylistInputTests: XCTestCase {
  var h: ToolHarness!

  override func setUpWithError() throws { h = try ToolHarness.make("playlist") }
  override func tearDownWithError() throws { h.cleanUp() }

  private func edit(_ name: String, path: String) throws -> String {
    let file = h.path(name)
    try """
    {"width": 64, "height": 48, "fps": 10, "clips": [{"duration": 1, "layers": [{"type": "video", "path": "\(path)"}]}]}
    """.write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  func testAnHLSPlaylistAndAnFFconcatListAreRefusedAndNothingIsRendered() throws {
    let outside = try ToolHarness.make("outside")
    defer { outside.cleanUp() }
    let secret = try outside.clip("secret.mp4", width: 64, height: 48, fps: 10, seconds: 1, audio: false)
    _ = try h.clip("clip.mp4", width: 64, height: 48, fps: 10, seconds: 1, audio: false)
    try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n\(secret)\n#EXTINF:1,\n/etc/hostname\n#EXT-X-ENDLIST\n".write(
      toFile: h.path("show.m3u8"), atomically: true, encoding: .utf8)
    try "ffconcat version 1.0\nfile clip.mp4\nfile clip.mp4\n".write(
      toFile: h.path("list.ffconcat"), atomically: true, encoding: .utf8)
    let cases = [
      ("show.m3u8", "an HLS playlist (ffmpeg's hls)"), ("list.ffconcat", "an ffconcat list (ffmpeg's concat)"),
    ]
    for (input, kind) in cases {
      let out = h.path(input + ".mp4")
      let r = try h.run(["edit", try edit(input + ".json5", path: input), "--renderer", "cpu", "-o", out, "--quiet"])
      XCTAssertEqual(r.status, 1, r.stderr)
      XCTAssertTrue(
        r.stderr.contains(
          "\(input): cannot read as an image or a clip: \(kind), which LayerKit does not open: it reads video, "
            + "sound and picture files, never playlists or lists that name other files"), r.stderr)
      XCTAssertFalse(FileManager.default.fileExists(atPath: out), input)
      XCTAssertEqual(h.leftovers().filter { $0 != ".cache" }, [], input)
    }
    // The clip the list names is read where it is given itself.
    let r = try h.run([
      "edit", try edit("clip.json5", path: "clip.mp4"), "--renderer", "cpu", "-o", h.path("clip-out.mp4"), "--quiet",
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
  }

  /// Names that ffmpeg would read as protocols are files, in and out: a clip `cache:clip.mp4`
  /// beside the edit, and `-o cache:out.mp4` from the working folder.
  func testNamesThatLookLikeProtocolsAreFiles() throws {
    _ = try h.clip("cache:clip.mp4", width: 64, height: 48, fps: 10, seconds: 1, audio: false)
    let file = try edit("colon.json5", path: "cache:clip.mp4")
    let binary = try ToolHarness.binary().path
    let r = try ToolHarness.run(
      "/bin/sh",
      [
        "-c", "cd \"$1\" && \"$2\" edit \"$3\" --renderer cpu -o cache:out.mp4 --quiet", "sh", h.folder.path, binary,
        file,
      ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let streams = try h.probe("file:" + h.path("cache:out.mp4"))
    XCTAssertEqual(streams.first?["width"], "64")
    XCTAssertEqual(streams.first?["nb_read_frames"], "10")
  }
}
