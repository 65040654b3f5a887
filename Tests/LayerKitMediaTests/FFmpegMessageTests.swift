import XCTest

@testable import LayerKitMedia

/// ffmpeg's own error lines, as they reach a user: one line in plain words, without ffmpeg's
/// internals (`[… @ 0x55…]` prefixes, "Last message repeated").
final class FFmpegMessageTests: XCTestCase {
  /// A full disk while `join` encodes: Debian's ffmpeg 5.1 printed these lines encoding a
  /// 312-frame part into a 40 KiB tmpfs (`-loglevel error`).
  func testAFullDiskIsSaidInPlainWords() {
    let stderr = """
      av_interleaved_write_frame(): No space left on device
          Last message repeated 4 times
      Error writing trailer of /mnt/full/x.mp4: No space left on device
      Error closing file /mnt/full/x.mp4: No space left on device
      """
    XCTAssertEqual(FFmpeg.explainFailure(stderr), "the disk is full (no space left on device)")
    let error = ProcessError.programFailed(program: "/usr/bin/ffmpeg", status: 1, detail: stderr)
    XCTAssertEqual(error.description, "ffmpeg failed (exit status 1): the disk is full (no space left on device)")
  }

  /// A filter graph longer than Linux's 128 KiB limit on one argument (a mix of a thousand
  /// tracks once made one, and was worded as ffmpeg missing) reaches ffmpeg as a script through
  /// an unlinked file; an argument list too long for the system is said as what it is.
  func testAFilterGraphOverLinuxsArgumentLimitRuns() throws {
    // ffmpeg's graph parser skips the blanks between a label and a filter: 140 000 of them.
    let graph = "[0:a]" + String(repeating: " ", count: 140_000) + "anull[out]"
    XCTAssertGreaterThan(graph.utf8.count, 128 << 10)
    let process = try FFmpeg.start(
      try FFmpeg.ffmpeg(),
      [
        "-nostdin", "-v", "error", "-f", "lavfi", "-i", "anullsrc", "-filter_complex", graph, "-map", "[out]", "-t",
        "0.05", "-f", "null", "-",
      ], stdin: false, stdout: .discard)
    XCTAssertEqual(process.wait(), 0, process.errorTail())
    let huge = [String](repeating: String(repeating: "x", count: 100_000), count: 40)
    XCTAssertThrowsError(try FFmpeg.start(try FFmpeg.ffmpeg(), huge, stdin: false, stdout: .discard)) { error in
      guard case ProcessError.programFailed(_, _, let detail)? = error as? ProcessError else {
        return XCTFail("expected programFailed, got \(error)")
      }
      XCTAssertTrue(detail.contains("E2BIG"), detail)
    }
  }

  /// Anything else keeps ffmpeg's words, less its internals: the last two distinct lines.
  func testOtherFailuresLoseFFmpegsInternals() {
    let stderr = """
      [Parsed_atrim_0 @ 0x55d0c1a2b3c0] Unable to parse option value "x" as duration
          Last message repeated 2 times
      [AVFilterGraph @ 0x55d0c1a2a000] Error initializing filter 'atrim' with args 'start=x'
      Error initializing complex filters.
      """
    let plain = FFmpeg.explainFailure(stderr)
    XCTAssertEqual(plain, "Error initializing filter 'atrim' with args 'start=x'; Error initializing complex filters.")
    XCTAssertNil(plain.range(of: #"@ 0x[0-9a-f]+"#, options: .regularExpression))
    XCTAssertFalse(plain.contains("Last message repeated"))
  }

  /// A time on ffmpeg's command line is never hundreds of digits, whatever reaches it.
  func testSecondsStayShort() {
    XCTAssertEqual(FFmpeg.seconds(1.5), "1.500000")
    XCTAssertEqual(FFmpeg.seconds(-1e300), "0.000000")
    XCTAssertLessThanOrEqual(FFmpeg.seconds(1e300).count, 20)
  }
}
