// swift-tools-version: 6.0
// LayerKit's fuzzers: libFuzzer targets for the parsers that read what users hand us, built
// against the main package with Swift's -sanitize=fuzzer (and AddressSanitizer). Not part of the
// main build or the test suite; Tools/fuzz.sh builds them and runs each for a set time, and
// Fuzz/README.md says how and what they have found.
import PackageDescription

let package = Package(
  name: "LayerKitFuzz",
  dependencies: [.package(name: "LayerKit", path: "..")],
  targets: [
    .target(name: "FuzzDriver", path: "Sources/FuzzDriver"),
    .executableTarget(
      name: "fuzz-image", dependencies: ["FuzzDriver", .product(name: "LayerKitMedia", package: "LayerKit")],
      path: "Sources/fuzz-image"),
    .executableTarget(
      name: "fuzz-y4m", dependencies: ["FuzzDriver", .product(name: "LayerKitMedia", package: "LayerKit")], path: "Sources/fuzz-y4m"),
    .executableTarget(
      name: "fuzz-subtitles", dependencies: ["FuzzDriver", .product(name: "LayerKitVideo", package: "LayerKit")],
      path: "Sources/fuzz-subtitles"),
    .executableTarget(
      name: "fuzz-scene",
      dependencies: [
        "FuzzDriver", .product(name: "LayerKitScene", package: "LayerKit"),
        .product(name: "LayerKitText", package: "LayerKit"),
      ],
      path: "Sources/fuzz-scene"),
    .executableTarget(
      name: "fuzz-gl-transition", dependencies: ["FuzzDriver", .product(name: "LayerKitGL", package: "LayerKit")],
      path: "Sources/fuzz-gl-transition"),
  ]
)
