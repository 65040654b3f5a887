// The `layerkit` command line: headless rendering of layer trees, GPU/CPU comparison of images,
// and a report of the EGL/GL stack it runs on.
import ArgumentParser
import Foundation
import LayerKit
import LayerKitMedia
import LayerKitRender
import LayerKitVideo

#if canImport(Glibc)
  import Glibc
#endif

@main
struct LayerKitCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "layerkit",
    abstract: "Render Core Animation–style layer trees offscreen, on the GPU (headless EGL) or the CPU.",
    subcommands: [
      Render.self, Present.self, TransitionCommand.self, Slideshow.self, Concat.self, EditCommand.self, BatchCommand.self, Join.self,
      List.self,
      Compare.self,
      Parity.self,
      Info.self,
    ]
  )

  static func main() {
    StandardStreams.reserve()
    Signals.install()
    main(nil)
  }
}

/// Prints one line to standard error.
func printError(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Writes `text` to standard output, all of it, or says why not: standard output closed (`>&-`),
/// full (`/dev/full`) or a pipe whose reader has gone. `print` would drop such a failure and the
/// command would exit 0 with nothing written.
func writeStandardOutput(_ text: String) throws {
  guard !StandardStreams.outputIsClosed else {
    throw VideoError.unwritableOutput(path: "standard output", reason: "it is closed; run with it open, or redirect it")
  }
  let previous = signal(SIGPIPE, SIG_IGN)  // a reader gone is an error here, not our death
  defer { signal(SIGPIPE, previous) }
  let failure = Array(text.utf8).withUnsafeBytes { FileIO.writeFully(STDOUT_FILENO, $0) }
  if failure != 0 {
    throw VideoError.unwritableOutput(path: "standard output", reason: FileIO.errorString(failure))
  }
}

/// Which backend renders.
enum Backend: String, ExpressibleByArgument, CaseIterable {
  case gpu, cpu
}

/// "1920x1080" → (1920, 1080).
struct PixelSize: ExpressibleByArgument {
  var width: Int
  var height: Int

  init?(argument: String) {
    let parts = argument.lowercased().split(separator: "x")
    // Any whole numbers parse; checkSize names the range.
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
    width = w
    height = h
  }
}

/// A seed: a whole number from 0 to 2⁶⁴ − 1. A negative one is read as a number (not as an
/// option) and refused by its range.
struct Seed: ExpressibleByArgument {
  /// As given; `check()` refuses what is not a seed.
  var text: String
  init(_ value: UInt64) { text = String(value) }
  init?(argument: String) { text = argument }
  var value: UInt64 { UInt64(text) ?? 0 }
  var defaultValueDescription: String { text }

  func check() throws {
    guard UInt64(text) != nil else {
      throw ValidationError("--seed must be a whole number from 0 to \(UInt64.max), not \(text)")
    }
  }
}

/// Checks `--size` against the largest frame LayerKit makes (`Image.maxDimension` a side,
/// `Image.maxPixelCount` in all), before the size is used for anything.
func checkSize(_ size: PixelSize?) throws {
  guard let size else { return }
  guard size.width >= 1, size.height >= 1 else {
    throw ValidationError("--size \(size.width)x\(size.height): WIDTHxHEIGHT takes whole numbers of pixels ≥ 1")
  }
  guard size.width <= Image.maxDimension, size.height <= Image.maxDimension,
    size.width * size.height <= Image.maxPixelCount
  else {
    throw ValidationError(
      "--size \(size.width)x\(size.height) is too large: at most \(Image.maxDimension) pixels a side "
        + "and \(Image.maxPixelCount) pixels in all")
  }
}

/// Refuses a file argument given as the empty string (`''`): read as a path it names the current
/// folder, and the message would talk about a folder nobody named.
func checkNamed(_ paths: [String?], _ what: String) throws {
  if paths.contains("") { throw ValidationError("\(what): the file name is empty ('')") }
}

/// Checks an option's number against its documented range (LayerKit's `Limits`).
func checkRange(_ value: Double?, _ name: String, _ range: ClosedRange<Double>, unit: String = "") throws {
  guard let value else { return }
  if let problem = Limits.problem(value, name, in: range, unit: unit) { throw ValidationError(problem) }
}

/// The text of a file an option names, refused in one line naming `what` and the file when it
/// is missing, not a regular file (a FIFO would wait forever), unreadable, or not UTF-8 text
/// (`kind` names what it should have been, e.g. "a shader").
func textFile(_ path: String, what: String, kind: String? = nil) throws -> String {
  if let irregular = MediaSource.irregularKind(path) {
    throw ParameterError("\(what): \(path) is \(irregular), not a regular file")
  }
  guard let data = FileManager.default.contents(atPath: path) else {
    let missing = !FileManager.default.fileExists(atPath: path)
    throw ParameterError("\(what): \(path): \(missing ? "no such file" : "cannot be read")")
  }
  guard let text = String(data: data, encoding: .utf8), !text.contains("\0") else {
    throw ParameterError("\(what): \(path) is \(kind.map { "not \($0): " } ?? "")not UTF-8 text")
  }
  return text
}
