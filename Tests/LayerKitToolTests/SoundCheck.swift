import Foundation
import XCTest

/// A video's sound held to another's without listening: decoded by ffmpeg (mono, 48 kHz, float),
/// its packets hashed as stored (`framemd5` of `-c copy`), its largest step from one sample to
/// the next (a click is one), and a stretch's likeness to another's at the best lag (a smart
/// render moves each clip's sound by at most 512 samples onto the packets' grid).
enum SoundCheck {
  /// The sound of `path`, decoded to mono 48 kHz samples.
  static func samples(_ path: String, in folder: String) throws -> [Float] {
    let out = folder + "/" + (path as NSString).lastPathComponent + ".f32"
    let r = try ToolHarness.run(
      ToolHarness.which("ffmpeg"),
      ["-v", "error", "-y", "-i", path, "-map", "0:a:0", "-ac", "1", "-ar", "48000", "-f", "f32le", out])
    XCTAssertEqual(r.status, 0, r.stderr)
    let data = try Data(contentsOf: URL(fileURLWithPath: out))
    try? FileManager.default.removeItem(atPath: out)
    return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
  }

  /// The MD5 of each packet of the first sound stream, as stored.
  static func packetHashes(_ path: String) throws -> [String] {
    let r = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "error", "-i", path, "-map", "0:a:0", "-c", "copy", "-f", "framemd5", "-"])
    XCTAssertEqual(r.status, 0, r.stderr)
    return r.stdout.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.compactMap {
      $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }
  }

  /// The output's packets that are a source's, found run by run: each index of `output` that
  /// starts or continues a run of packets equal to consecutive packets of one of `sources`.
  /// Runs shorter than 4 packets are not counted (a silent packet can repeat anywhere).
  static func copiedPackets(_ output: [String], from sources: [[String]]) -> [Range<Int>] {
    var index: [String: [(Int, Int)]] = [:]
    for (s, hashes) in sources.enumerated() {
      for (k, hash) in hashes.enumerated() { index[hash, default: []].append((s, k)) }
    }
    var runs: [Range<Int>] = []
    var i = 0
    while i < output.count {
      var best = 0
      for (s, k) in index[output[i]] ?? [] {
        var n = 0
        while i + n < output.count, k + n < sources[s].count, output[i + n] == sources[s][k + n] { n += 1 }
        best = max(best, n)
      }
      if best >= 4 {
        runs.append(i..<i + best)
        i += best
      } else {
        i += 1
      }
    }
    return runs
  }

  /// The largest step from one sample to the next in `range`.
  static func largestStep(_ x: [Float], _ range: Range<Int>? = nil) -> Float {
    let r = range.map { max(1, $0.lowerBound)..<min(x.count, $0.upperBound) } ?? 1..<x.count
    var largest: Float = 0
    for i in r { largest = max(largest, abs(x[i] - x[i - 1])) }
    return largest
  }

  /// How alike `a`'s samples `window` are to `b`'s at the best lag within ±`lags`: the
  /// correlation there, the lag, and `a`'s level against `b`'s (dB).
  static func likeness(_ a: [Float], _ b: [Float], window: Range<Int>, lags: Int = 600) -> (
    correlation: Float, lag: Int, levelDB: Float
  ) {
    a.withUnsafeBufferPointer { x in
      b.withUnsafeBufferPointer { y in
        var best: (Float, Int) = (-2, 0)
        var aa: Float = 0
        for i in window { aa += x[i] * x[i] }
        var bestEnergy: Float = 0
        for lag in -lags...lags where window.lowerBound + lag >= 0 && window.upperBound + lag <= y.count {
          var ab: Float = 0
          var bb: Float = 0
          for i in window {
            ab += x[i] * y[i + lag]
            bb += y[i + lag] * y[i + lag]
          }
          let c = ab / max(1e-12, (aa * bb).squareRoot())
          if c > best.0 { (best, bestEnergy) = ((c, lag), bb) }
        }
        return (best.0, best.1, 10 * log10(max(1e-12, aa) / max(1e-12, bestEnergy)))
      }
    }
  }
}
