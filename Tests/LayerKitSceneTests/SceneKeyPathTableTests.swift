import XCTest

@testable import LayerKit
@testable import LayerKitScene

/// The model's own list of animatable key paths (internal to LayerKit), for holding the scene
/// format's table of value types to it.
enum LayerKitKeyPaths {
  static var all: [String] { AnimatableProperties.keyPaths }

  /// The format's value type for `keyPath`, by name.
  static func kind(_ keyPath: String) -> String? { SceneValueKind.of(keyPath)?.rawValue }

  static var formatKeyPaths: [String] { SceneValueKind.table.keys.sorted() }
}

/// The format's table of key paths and value types is the model's list of animatable key paths.
final class SceneKeyPathTableTests: XCTestCase {
  func testTheFormatsTableIsTheModelsList() {
    XCTAssertEqual(LayerKitKeyPaths.formatKeyPaths, LayerKitKeyPaths.all)
  }
}
