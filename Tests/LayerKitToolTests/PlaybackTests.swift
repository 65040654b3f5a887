import Foundation
import LayerKit
import LayerKitSamples
import XCTest

/// Held to a real player: every kind of MP4 and WebM layerkit writes plays to its end in Debian's
/// headless chromium, through an HTML `<video>` element (Player/serve.py serves the page and the
/// file and prints what the page reported). `Tools/setup.sh` installs chromium; without it the
/// test fails, never skips.
final class PlaybackTests: XCTestCase {
  private static let player = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Player/serve.py").path

  func testEveryMP4AndWebMPlaysToItsEndInChromium() throws {
    let h = try ToolHarness.make("playback")
    defer { h.cleanUp() }
    XCTAssertTrue(
      FileManager.default.isExecutableFile(atPath: ToolHarness.which("chromium")),
      "chromium is not installed: run Tools/setup.sh")
    let a = try h.write(try SampleScene.testImage(width: 64, height: 36, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 64, height: 36, hue: 0.6), "b.png")
    let clip = try h.clip("c.mp4", width: 64, height: 36, fps: 25, seconds: 1.5)
    let common = ["--renderer", "cpu", "--quiet"]
    let outputs: [(String, [String])] = [
      ("transition.mp4", ["transition", a, b, "--duration", "1"]),
      ("transition.webm", ["transition", a, b, "--duration", "1"]),
      ("alpha.webm", ["transition", a, b, "--duration", "1", "--pix-fmt", "yuva420p"]),
      ("yuv444.mp4", ["transition", a, b, "--duration", "1", "--pix-fmt", "yuv444p"]),
      ("sound.mp4", ["concat", clip, clip, "--cut", "0.2:", "--transition", "fade", "--transition-duration", "0.4"]),
      ("sound.webm", ["slideshow", a, clip, "--hold", "0.5", "--transition-duration", "0.3", "--overlay", b]),
    ]
    for (name, arguments) in outputs {
      let out = h.path(name)
      let r = try h.run(arguments + common + ["-o", out])
      XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
      let played = try ToolHarness.run(ToolHarness.which("python3"), [Self.player, out, "60"])
      let line = played.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      XCTAssertEqual(played.status, 0, "\(name): chromium reported '\(line)' \(played.stderr.suffix(300))")
      // ended CURRENT DURATION PRESENTED DECODED DROPPED: played to its end.
      let fields = line.split(separator: " ")
      if fields.count == 6, let current = Double(fields[1]), let duration = Double(fields[2]) {
        XCTAssertEqual(current, duration, accuracy: 0.05, name)
        XCTAssertGreaterThan(duration, 0.5, name)
      } else {
        XCTFail("\(name): chromium reported '\(line)'")
      }
    }
  }
}
