// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "LayerKit",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "LayerKit", targets: ["LayerKit"]),
    .library(name: "LayerKitGL", targets: ["LayerKitGL"]),
    .library(name: "LayerKitReference", targets: ["LayerKitReference"]),
    .library(name: "LayerKitMedia", targets: ["LayerKitMedia"]),
    .library(name: "LayerKitTesting", targets: ["LayerKitTesting"]),
    .executable(name: "layerkit", targets: ["layerkit"]),
    .executable(name: "layerkit-bench", targets: ["layerkit-bench"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    // System libraries (Debian -dev packages); module maps only.
    .systemLibrary(name: "CEGL", path: "Sources/CEGL"),
    .systemLibrary(name: "CPNG", path: "Sources/CPNG"),
    .systemLibrary(name: "CJPEG", path: "Sources/CJPEG"),
    .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),

    // The model: geometry, layers, and the RenderList they flatten to. Pure Swift.
    .target(name: "LayerKit"),

    // Sample layer trees and test images for the CLI, the benchmark and the tests.
    .target(name: "LayerKitSamples", dependencies: ["LayerKit"]),

    // Every GLSL source, shipped as resources of a small target whose folder is Shaders/.
    .target(
      name: "LayerKitShaders",
      path: "Shaders",
      exclude: [],
      sources: ["ShaderBundle.swift"],
      resources: [.copy("layer"), .copy("effects"), .copy("transitions")]
    ),

    // GPU backend: headless EGL + OpenGL ES 3.
    .target(name: "LayerKitGL", dependencies: ["LayerKit", "LayerKitShaders", "CEGL"]),

    // CPU backend: the reference rasterizer.
    .target(name: "LayerKitReference", dependencies: ["LayerKit"]),

    // Images in and out, comparison.
    .target(name: "LayerKitMedia", dependencies: ["LayerKit", "CPNG", "CJPEG"]),

    // Render on both backends and compare; for users' tests and ours.
    .target(
      name: "LayerKitTesting",
      dependencies: ["LayerKit", "LayerKitGL", "LayerKitReference", "LayerKitMedia"]
    ),

    .executableTarget(
      name: "layerkit",
      dependencies: [
        "LayerKit", "LayerKitGL", "LayerKitReference", "LayerKitMedia", "LayerKitSamples", "CMalloc",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Tools/layerkit"
    ),
    .executableTarget(
      name: "layerkit-bench",
      dependencies: [
        "LayerKit", "LayerKitGL", "LayerKitReference", "LayerKitSamples",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Tools/layerkit-bench"
    ),

    .testTarget(name: "LayerKitTests", dependencies: ["LayerKit"]),
    .testTarget(
      name: "LayerKitReferenceTests",
      dependencies: ["LayerKit", "LayerKitReference", "LayerKitMedia", "LayerKitSamples"]),
    .testTarget(
      name: "LayerKitMediaTests", dependencies: ["LayerKit", "LayerKitMedia"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "LayerKitGLTests",
      dependencies: [
        "LayerKit", "LayerKitGL", "LayerKitReference", "LayerKitMedia", "LayerKitTesting", "LayerKitSamples",
      ],
      resources: [.copy("Fixtures")]),
    .testTarget(name: "LayerKitToolTests", dependencies: ["LayerKitMedia", "LayerKit", "LayerKitSamples", "layerkit"]),
  ],
  swiftLanguageModes: [.v6]
)
