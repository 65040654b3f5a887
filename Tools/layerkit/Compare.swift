import ArgumentParser
import Foundation
import LayerKit
import LayerKitMedia
import LayerKitVideo

/// `layerkit compare a.png b.png`: how far apart two images are, and whether that is within a
/// tolerance (exit 0) or not (exit 1). Unreadable input exits 2.
struct Compare: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compare two images: largest channel difference, pixels beyond the tolerance, PSNR.",
    discussion: """
      Exits 0 when the images are within the tolerance, 1 when they are not (or differ in size), \
      2 when an image cannot be read. The default tolerance is LayerKit's GPU≡CPU contract: no \
      more than 0.1 % of pixels with a channel off by more than 2, and PSNR ≥ 45 dB.
      """)

  @Argument(help: "The expected image (PNG or JPEG).") var expected: String
  @Argument(help: "The actual image (PNG or JPEG).") var actual: String
  @Option(help: "Write a diff image (PNG) here.") var diff: String?
  @OptionGroup var limits: ToleranceOptions

  func validate() throws {
    try checkNamed([expected, actual], "an image")
    try checkNamed([diff], "--diff")
  }

  func run() throws {
    if let diff {
      do {
        try OutputIdentity.refuse(output: diff, inputs: [expected, actual])
      } catch {
        printError("layerkit compare: \(commandLineMessage(error))")
        throw ExitCode(2)
      }
    }
    let a: LayerKit.Image
    let b: LayerKit.Image
    do {
      a = try ImageFile.read(URL(fileURLWithPath: expected))
      b = try ImageFile.read(URL(fileURLWithPath: actual))
    } catch {
      printError("layerkit compare: \(commandLineMessage(error))")
      throw ExitCode(2)
    }
    let comparison: ImageComparison
    do {
      comparison = try ImageComparison(expected: a, actual: b)
    } catch {
      print("images differ in size: \(a.width)×\(a.height) and \(b.width)×\(b.height)")
      print("result: outside tolerance")
      throw ExitCode(1)
    }
    let tolerance = limits.tolerance
    let fraction = comparison.differingFraction(over: limits.maxDelta)
    let count = comparison.differingPixels(over: limits.maxDelta)
    print("max channel delta: \(comparison.maxChannelDelta)")
    print(
      "pixels beyond \(limits.maxDelta): \(String(format: "%.4f", fraction * 100))% (\(count) of \(a.width * a.height))"
    )
    print("psnr: \(comparison.psnr.isInfinite ? "inf" : String(format: "%.2f", comparison.psnr)) dB")
    if let diff {
      do {
        try ImageFile.writePNG(comparison.diffImage(), to: URL(fileURLWithPath: diff))
        print("diff: \(diff)")
      } catch {
        printError("layerkit compare: \(commandLineMessage(error))")
        throw ExitCode(2)
      }
    }
    let passed = comparison.passes(tolerance)
    print("result: \(passed ? "within" : "outside") tolerance")
    if !passed { throw ExitCode(1) }
  }
}
