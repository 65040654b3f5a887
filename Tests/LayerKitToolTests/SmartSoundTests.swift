import Foundation
import XCTest

/// A smart render's sound: the clips' AAC packets copied where one clip is heard alone at its
/// own level, only the crossfades and the seams' margins encoded — held to the sources' packets
/// (copied byte for byte), to the `--smart off` render's sound (the same length, no step larger
/// than its largest, alike at every seam), to ffmpeg's `-xerror` and to Chromium; and encoded
/// whole, the summary saying why, where the edit changes the sound everywhere.
final class SmartSoundTests: XCTestCase {
  private static let player = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Player/serve.py").path

  /// A 3 s clip of test pictures (GOPs of 0.5 s) and a tone at `frequency`, AAC at `rate`.
  private func clip(_ h: ToolHarness, _ name: String, frequency: Int, rate: Int = 48000) throws -> String {
    let out = h.path(name)
    let r = try ToolHarness.run(
      ToolHarness.which("ffmpeg"),
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=128x72:r=30:d=3", "-f", "lavfi", "-i",
        "sine=f=\(frequency):d=3:r=\(rate)", "-c:v", "libx264", "-x264-params", "keyint=15:min-keyint=15:scenecut=0",
        "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
        "-color_range", "tv", "-c:a", "aac", "-shortest", out,
      ])
    XCTAssertEqual(r.status, 0, r.stderr)
    return out
  }

  func testTheClipsSoundIsCopiedWhereItIsHeardAloneAndTheSeamsDoNotShow() throws {
    let h = try ToolHarness.make("smart-sound")
    defer { h.cleanUp() }
    let clips = try [440, 660, 550].map { try clip(h, "tone\($0).mp4", frequency: $0) }
    let (smart, plain, stats) = (h.path("smart.mp4"), h.path("plain.mp4"), h.path("smart.json"))
    let common = ["concat"] + clips + ["--transition", "fade", "--transition-duration", "0.5", "--renderer", "cpu"]
    let r = try h.run(common + ["-o", smart, "--stats", stats])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(r.stderr.contains("sound: copied"), r.stderr)
    XCTAssertEqual(try h.run(common + ["--smart", "off", "--quiet", "-o", plain]).status, 0)
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any]
    let copied = try XCTUnwrap(json?["copiedSoundPackets"] as? Int)

    // Decoded whole, errors fatal, not a warning.
    let decode = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "warning", "-xerror", "-i", smart, "-f", "null", "-"])
    XCTAssertEqual(decode.status, 0, decode.stderr)
    XCTAssertEqual(decode.stderr, "")

    // The copied packets are the sources' own, byte for byte: 8 s of sound, 7 of them outside the
    // two 0.5 s crossfades, copied but for a few packets each side of each seam.
    let output = try SoundCheck.packetHashes(smart)
    let runs = SoundCheck.copiedPackets(output, from: try clips.map(SoundCheck.packetHashes))
    let found = runs.reduce(0) { $0 + $1.count }
    XCTAssertGreaterThanOrEqual(found, copied)
    XCTAssertGreaterThan(copied, output.count * 3 / 4, "copied \(copied) of \(output.count) packets")
    XCTAssertEqual(runs.count, 3, "one run a clip: \(runs)")

    // The sound is the --smart off render's: as long, no step larger than its own largest (a
    // click would be one), and around every seam between a copied run and an encoded stretch
    // (4096 samples across it) alike to it at the lag the clip's sound was moved by.
    let (a, b) = (try SoundCheck.samples(smart, in: h.folder.path), try SoundCheck.samples(plain, in: h.folder.path))
    XCTAssertEqual(a.count, b.count, "decoded samples")
    XCTAssertLessThanOrEqual(SoundCheck.largestStep(a), SoundCheck.largestStep(b) * 1.05 + 0.001)
    for run in runs {
      for packet in [run.lowerBound, run.upperBound] {
        // Output packet p holds samples (p − 1) × 1024 …; the seam is where it starts.
        let seam = (packet - 1) * 1024
        guard seam - 2048 >= 0, seam + 2048 <= a.count else { continue }
        let near = SoundCheck.likeness(a, b, window: seam - 2048..<seam + 2048)
        print("smart sound: seam at sample \(seam): \(near)")
        XCTAssertGreaterThan(near.correlation, 0.999, "seam at sample \(seam): \(near)")
        XCTAssertLessThan(abs(near.levelDB), 0.2, "seam at sample \(seam): \(near)")
        XCTAssertLessThanOrEqual(abs(near.lag), 512, "seam at sample \(seam): \(near)")
        XCTAssertLessThanOrEqual(
          SoundCheck.largestStep(a, seam - 2048..<seam + 2048),
          SoundCheck.largestStep(b, seam - 2048 + near.lag..<seam + 2048 + near.lag) * 1.05 + 0.001,
          "seam at sample \(seam)")
      }
    }
    // A real player plays it to its end.
    let played = try ToolHarness.run(ToolHarness.which("python3"), [Self.player, smart, "60"])
    XCTAssertEqual(played.status, 0, played.stdout)
    XCTAssertTrue(played.stdout.hasPrefix("ended"), played.stdout)
  }

  func testSoundChangedEverywhereIsEncodedWholeAndTheSummarySaysWhy() throws {
    let h = try ToolHarness.make("smart-sound-whole")
    defer { h.cleanUp() }
    let a = try clip(h, "a.mp4", frequency: 440)
    let b = try clip(h, "b.mp4", frequency: 660)
    let slow = try clip(h, "c.mp4", frequency: 550, rate: 44100)
    let music = h.path("music.m4a")
    XCTAssertEqual(
      try ToolHarness.run(
        ToolHarness.which("ffmpeg"), ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=300:d=8", "-c:a", "aac", music]
      ).status, 0)
    let cases: [([String], String)] = [
      ([a, b, "--audio", music], "sound encoded whole: music or a voice plays under the video"),
      ([a, slow], "sound encoded whole: the clips' sound differs (48000 Hz mono, 44100 Hz mono)"),
      ([a, b, "--speed", "1", "--speed", "2"], "sound encoded whole: b.mp4's sound plays at another speed or loops"),
      ([a, b, "--loudness", "-16"], "sound encoded whole: a loudness target is met over the whole mix"),
      ([a, b, "--volume", "0.5"], "sound encoded whole: a gain is set over the whole mix"),
    ]
    for (n, (arguments, words)) in cases.enumerated() {
      let out = h.path("out\(n).mp4")
      let stats = h.path("out\(n).json")
      let r = try h.run(["concat"] + arguments + ["--renderer", "cpu", "-o", out, "--stats", stats])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertTrue(r.stderr.contains("from the sources"), r.stderr)
      XCTAssertTrue(r.stderr.contains(words), r.stderr)
      let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any]
      XCTAssertNil(json?["copiedSoundPackets"], words)
    }
  }

  /// Whether a clip decodes cleanly is worked out once for the file (a whole decode) and
  /// remembered under its identity: a verdict on file is believed, and a file touched is asked
  /// again.
  func testDecodeChecksAreRememberedForTheFileUntilItChanges() throws {
    let h = try ToolHarness.make("smart-verdicts")
    defer { h.cleanUp() }
    let (a, b) = (try clip(h, "a.mp4", frequency: 440), try clip(h, "b.mp4", frequency: 660))
    let cache = h.path("verdicts")
    let env = ["LAYERKIT_CACHE_DIR": cache]
    let args = ["concat", a, b, "--renderer", "cpu", "--overwrite", "-o", h.path("out.mp4")]
    let first = try h.run(args, environment: env)
    XCTAssertEqual(first.status, 0, first.stderr)
    XCTAssertTrue(first.stderr.contains("from the sources"), first.stderr)
    let folder = cache + "/decode-checks"
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    XCTAssertEqual(files.count, 4, "a verdict for each clip's pictures and sound: \(files)")
    var planted = 0
    for name in files {
      let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
      let lines = text.split(separator: "\n")
      XCTAssertEqual(lines.last, "clean", text)
      guard lines.first?.hasPrefix("video|") == true else { continue }
      try (lines[0] + "\nfault: planted by the test").write(
        toFile: folder + "/" + name, atomically: true, encoding: .utf8)
      planted += 1
    }
    XCTAssertEqual(planted, 2)
    let believed = try h.run(args, environment: env)
    XCTAssertEqual(believed.status, 0, believed.stderr)
    XCTAssertTrue(
      believed.stderr.contains("every frame encoded, none copied: a.mp4 does not decode cleanly (planted by the test)"),
      believed.stderr)
    // Touched, the files are other files: decoded again, found clean, copied.
    for clip in [a, b] {
      try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: clip)
    }
    let asked = try h.run(args, environment: env)
    XCTAssertEqual(asked.status, 0, asked.stderr)
    XCTAssertTrue(asked.stderr.contains("from the sources"), asked.stderr)
  }

  /// A clip's pictures and sound are checked by one decode of the file; where it finds damage,
  /// each stream is decoded alone to say whose it is: a clip whose pictures are damaged is
  /// encoded, and its sound, found clean, may still be copied.
  func testOneDecodeChecksPicturesAndSoundAndADamagedPictureIsTheVideosFault() throws {
    let h = try ToolHarness.make("smart-damaged")
    defer { h.cleanUp() }
    let (a, b) = (try clip(h, "a.mp4", frequency: 440), try clip(h, "b.mp4", frequency: 660))
    // The second half of every fourth picture from the 21st overwritten (positions by ffprobe).
    let probe = try ToolHarness.run(
      ToolHarness.which("ffprobe"),
      ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pos,size", "-of", "compact=p=0", a])
    XCTAssertEqual(probe.status, 0, probe.stderr)
    let packets = probe.stdout.split(separator: "\n").map { line in
      Dictionary(
        uniqueKeysWithValues: line.split(separator: "|").map { pair in
          let kv = pair.split(separator: "=")
          return (String(kv[0]), Int(kv[1]) ?? 0)
        })
    }
    XCTAssertEqual(packets.count, 90)
    let file = try XCTUnwrap(FileHandle(forUpdatingAtPath: a))
    for packet in packets[20..<60].enumerated().filter({ $0.offset % 4 == 0 }).map(\.element) {
      let (position, size) = (packet["pos"]!, packet["size"]!)
      try file.seek(toOffset: UInt64(position + size / 2))
      file.write(Data((0..<(size - size / 2)).map { UInt8(truncatingIfNeeded: $0 * 97 + 13) }))
    }
    try file.close()
    let cache = h.path("verdicts")
    let r = try h.run(
      ["concat", a, b, "--renderer", "cpu", "-o", h.path("out.mp4")], environment: ["LAYERKIT_CACHE_DIR": cache])
    XCTAssertEqual(r.status, 0, r.stderr)
    // b's pictures copied, a's encoded; both clips' sound copied where heard alone.
    XCTAssertTrue(r.stderr.contains("copied 2.5 s of 5.5 s"), r.stderr)
    XCTAssertTrue(r.stderr.contains("sound: copied"), r.stderr)
    var verdicts: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: cache + "/decode-checks") {
      let lines = try String(contentsOfFile: cache + "/decode-checks/" + name, encoding: .utf8).split(separator: "\n")
      let key = lines[0].split(separator: "|")
      verdicts[key[0] + " " + (key[1] as NSString).lastPathComponent] = String(lines[1])
    }
    XCTAssertEqual(verdicts["sound a.mp4"], "clean", "\(verdicts)")
    XCTAssertEqual(verdicts["video b.mp4"], "clean", "\(verdicts)")
    XCTAssertEqual(verdicts["sound b.mp4"], "clean", "\(verdicts)")
    XCTAssertTrue(verdicts["video a.mp4"]?.hasPrefix("fault: ") == true, "\(verdicts)")
  }
}
