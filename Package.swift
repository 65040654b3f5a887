// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "LayerKit",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "LayerKit", targets: ["LayerKit", "LayerKitText", "LayerKitMedia"]),
    .library(name: "LayerKitRender", targets: ["LayerKitRender"]),
    .library(name: "LayerKitGL", targets: ["LayerKitGL"]),
    .library(name: "LayerKitReference", targets: ["LayerKitReference"]),
    .library(name: "LayerKitMedia", targets: ["LayerKitMedia"]),
    .library(name: "LayerKitVideo", targets: ["LayerKitVideo"]),
    .library(name: "LayerKitEdit", targets: ["LayerKitEdit"]),
    .library(name: "LayerKitTesting", targets: ["LayerKitTesting"]),
    .library(name: "LayerKitScene", targets: ["LayerKitScene"]),
    .library(name: "LayerKitText", targets: ["LayerKitText"]),
    .executable(name: "layerkit", targets: ["layerkit"]),
    .executable(name: "layerkit-bench", targets: ["layerkit-bench"]),
    .executable(name: "layerkit-server", targets: ["layerkit-server"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
    // The render server's alone (the layerkit product does not build them).
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    // HMAC-SHA256 of the server's callbacks (postgres-nio builds it already).
    .package(url: "https://github.com/apple/swift-crypto", "3.9.0"..<"5.0.0"),
  ],
  targets: [
    // System libraries (Debian -dev packages); module maps only.
    .systemLibrary(name: "CEGL", path: "Sources/CEGL"),
    .systemLibrary(name: "CPNG", path: "Sources/CPNG"),
    .systemLibrary(name: "CJPEG", path: "Sources/CJPEG"),
    .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
    .systemLibrary(name: "CText", path: "Sources/CText", pkgConfig: "raqm"),

    // The contract between the model and the backends: RenderList and its ops, Renderer, errors,
    // the per-pixel specification (RenderMath), the catalogue of built-in effects. Pure Swift.
    .target(name: "LayerKitRender"),

    // The model: geometry, layers, animations, and the builder that flattens them into a
    // RenderList. Re-exports LayerKitRender. Pure Swift.
    .target(name: "LayerKit", dependencies: ["LayerKitRender"]),

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

    // GPU backend: headless EGL + OpenGL ES 3. Sees RenderLists only, never the model.
    .target(name: "LayerKitGL", dependencies: ["LayerKitRender", "LayerKitShaders", "CEGL"]),

    // CPU backend: the reference rasterizer. Sees RenderLists only, never the model.
    .target(name: "LayerKitReference", dependencies: ["LayerKitRender"]),

    // Text on the system's font stack (fontconfig, FreeType, HarfBuzz and FriBiDi through
    // libraqm, libunibreak): the layout engine of TextLayer.
    // The LayerKit product links it, so a TextLayer draws with no set-up call: the C target's
    // load-time constructor registers the font stack with the model (Registration.swift).
    .target(name: "LayerKitText", dependencies: ["LayerKit", "CText", "LayerKitTextRegistration"]),
    .target(name: "LayerKitTextRegistration"),

    // Images in and out, comparison. Registers its decoder with the model's UIImage as a program
    // that links it loads (LayerKitMediaRegistration, as LayerKitText registers the font stack).
    .target(name: "LayerKitMedia", dependencies: ["LayerKit", "CPNG", "CJPEG", "LayerKitMediaRegistration"]),
    .target(name: "LayerKitMediaRegistration"),

    // The video wing, by role (docs/ARCHITECTURE.md draws it). The edit: a whole video as data
    // and its readers — editly's edit files, the typed transition specs; no processes, no
    // encoders.
    .target(name: "LayerKitEdit", dependencies: ["LayerKit"]),
    // The output: the plan decided once (pixel format, planes, encoder, sound, part), the sinks
    // and targets, the frame pipeline, the sound mix's graph.
    .target(name: "LayerKitOutput", dependencies: ["LayerKit", "LayerKitMedia"]),
    // The timeline: pictures and clips in sequence with their transitions, rendered frame by
    // frame; titles, subtitles, overlays and Ken Burns over them; the timeline's sound.
    .target(name: "LayerKitTimeline", dependencies: ["LayerKit", "LayerKitMedia", "LayerKitText", "LayerKitOutput"]),
    // Playing an edit into a timeline, the render entry (VideoRender), smart rendering, the parts
    // of sharded renders and their joining. Re-exports the three above.
    .target(
      name: "LayerKitVideo",
      dependencies: ["LayerKit", "LayerKitMedia", "LayerKitText", "LayerKitEdit", "LayerKitOutput", "LayerKitTimeline"]),

    // Render on both backends and compare; for users' tests and ours.
    .target(
      name: "LayerKitTesting",
      dependencies: ["LayerKit", "LayerKitGL", "LayerKitReference", "LayerKitMedia", "LayerKitText"]
    ),

    // Scene files: animated layer compositions described in JSON, read into and written from the
    // model (layers, animations, transactions).
    .target(name: "LayerKitScene", dependencies: ["LayerKit", "LayerKitMedia", "LayerKitVideo", "LayerKitText"]),

    .executableTarget(
      name: "layerkit",
      dependencies: [
        "LayerKit", "LayerKitGL", "LayerKitReference", "LayerKitMedia", "LayerKitVideo", "LayerKitSamples",
        "LayerKitScene", "CMalloc",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "SwiftCSV", package: "SwiftCSV"),
      ],
      path: "Tools/layerkit"
    ),
    // The HTTP render server: edits queued (SQLite under --state), rendered through the render
    // entry, watched and fetched over HTTP.
    .target(
      name: "LayerKitServer",
      dependencies: [
        "LayerKit", "LayerKitGL", "LayerKitReference", "LayerKitMedia", "LayerKitVideo",
        .product(name: "Hummingbird", package: "hummingbird"), .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "CoreMetrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      resources: [.copy("Web")]),
    .executableTarget(
      name: "layerkit-server",
      dependencies: ["LayerKitServer", .product(name: "ArgumentParser", package: "swift-argument-parser")],
      path: "Tools/layerkit-server"
    ),
    .executableTarget(
      name: "layerkit-bench",
      dependencies: [
        "LayerKit", "LayerKitGL", "LayerKitReference", "LayerKitSamples", "LayerKitMedia", "LayerKitVideo",
        "LayerKitText", "LayerKitScene", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Tools/layerkit-bench",
      // MoviePy's side of the edit workloads: Python run by the bench, not built.
      exclude: ["moviepy"]
    ),

    // The model's tests link the model alone (no EGL, no fonts, no codecs).
    .testTarget(name: "LayerKitTests", dependencies: ["LayerKit"]),
    .testTarget(
      name: "LayerKitReferenceTests",
      dependencies: [
        "LayerKit", "LayerKitReference", "LayerKitMedia", "LayerKitVideo", "LayerKitSamples", "LayerKitTesting",
      ]),
    // Core Animation code from Apple's references and common recipes, ported by renaming only
    // (README: Porting from Core Animation), checked against what the references say.
    .testTarget(
      name: "LayerKitPortingTests",
      dependencies: ["LayerKit", "LayerKitText", "LayerKitReference", "LayerKitMedia", "LayerKitTesting"]),
    .testTarget(
      name: "LayerKitTextTests", dependencies: ["LayerKit", "LayerKitText", "LayerKitReference", "LayerKitMedia"]),
    .testTarget(
      name: "LayerKitMediaTests", dependencies: ["LayerKit", "LayerKitMedia", "LayerKitTesting"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "LayerKitVideoTests",
      dependencies: [
        "LayerKit", "LayerKitMedia", "LayerKitVideo", "LayerKitEdit", "LayerKitOutput", "LayerKitTimeline",
        "LayerKitReference",
        "LayerKitTesting",
      ]),
    .testTarget(
      name: "LayerKitGLTests",
      dependencies: [
        "LayerKit", "LayerKitGL", "LayerKitReference", "LayerKitMedia", "LayerKitVideo", "LayerKitTesting",
        "LayerKitSamples",
      ],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "LayerKitSceneTests",
      dependencies: [
        "LayerKit", "LayerKitScene", "LayerKitReference", "LayerKitMedia", "LayerKitVideo", "LayerKitTesting",
      ]),
    .testTarget(name: "LayerKitServerTests", dependencies: ["LayerKitServer", "LayerKitEdit"]),
    .testTarget(
      name: "LayerKitToolTests",
      dependencies: [
        "LayerKitMedia", "LayerKitVideo", "LayerKit", "LayerKitSamples", "LayerKitTesting", "LayerKitScene",
        "LayerKitGL",
        "LayerKitReference", "layerkit", "layerkit-server",
      ],
      // Shaders and media the tests hand to the layerkit binary by path; the player check's page
      // and server (Player/), run from where they lie.
      exclude: ["Fixtures", "Player"],
      resources: [.copy("Corpus")]),
  ],
  swiftLanguageModes: [.v6]
)
