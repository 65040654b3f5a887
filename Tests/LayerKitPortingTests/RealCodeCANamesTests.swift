import LayerKit
import XCTest

/// A project's own layer class named like one of LayerKit's: with Core Animation's names there,
/// `class TextLayer: CATextLayer` declares the project's `TextLayer` (it shadows LayerKit's in
/// its scope) instead of inheriting from itself. Nested here so that it shadows LayerKit's in
/// this scope alone, not in the other tests of the module.
enum Onboarding {
  final class TextLayer: CATextLayer {
    required init() {
      super.init()
      fontSize = 12
      foregroundColor = UIColor.white.cgColor
      alignmentMode = .center
    }

    override init(layer: Any) { super.init(layer: layer) }

    required init?(coder aDecoder: NSCoder) { super.init(coder: aDecoder) }
  }
}

/// The third porting form: Core Animation code with its `CA` names kept — only the import
/// changed. `CALayer`, `CAShapeLayer`, `CABasicAnimation`, `CATransaction`, `kCAFillModeForwards`,
/// `CACurrentMediaTime()` and `CATransform3DMakeRotation` are LayerKit's own types, constants and
/// functions under Core Animation's names.
final class RealCodeCANamesTests: RealCodeTestCase {
  /// A card that slides in and fades up, written as Core Animation code writes it.
  func testCoreAnimationCodeWithItsOwnNamesRenders() throws {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    root.backgroundColor = UIColor.black.cgColor
    let card = CAShapeLayer()
    card.frame = CGRect(x: 10, y: 30, width: 80, height: 40)
    card.path = UIBezierPath(roundedRect: card.bounds, cornerRadius: 6).cgPath
    card.fillColor = UIColor.red.cgColor
    root.addSublayer(card)

    CATransaction.begin()
    CATransaction.setDisableActions(true)
    card.opacity = 1
    CATransaction.commit()

    let slide = CABasicAnimation(keyPath: "position.x")
    slide.fromValue = -40
    slide.toValue = 50
    slide.duration = 1
    slide.timingFunction = CAMediaTimingFunction(name: kCAMediaTimingFunctionLinear)
    slide.fillMode = kCAFillModeForwards
    slide.isRemovedOnCompletion = false
    slide.beginTime = 0
    card.add(slide, forKey: "slide")
    let start: CFTimeInterval = CACurrentMediaTime()
    XCTAssertGreaterThanOrEqual(start, 0)

    let label = Onboarding.TextLayer()
    label.string = "CA"
    label.frame = CGRect(x: 0, y: 80, width: 100, height: 20)
    root.addSublayer(label)
    XCTAssertTrue((label as CALayer) is CATextLayer, "our TextLayer is a CATextLayer")

    let turned = CALayer()
    turned.frame = CGRect(x: 40, y: 0, width: 20, height: 20)
    turned.backgroundColor = UIColor.blue.cgColor
    turned.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
    root.addSublayer(turned)
    XCTAssertTrue(CATransform3DEqualToTransform(turned.transform, Transform3DMakeRotation(.pi / 4, 0, 0, 1)))
    XCTAssertFalse(CATransform3DIsIdentity(turned.transform))

    // Halfway (0.5 s): the card's centre at x = 5, so its right half shows from x = 5 to 45.
    let half = try rendered(root, at: 0.5, name: "ca-names-half")
    XCTAssertEqual(rgba(half, 30, 50), [255, 0, 0, 255])
    XCTAssertEqual(rgba(half, 60, 50), [0, 0, 0, 255])
    // Held at its end (kCAFillModeForwards): the centre at x = 50.
    let end = try rendered(root, at: 2, name: "ca-names-end")
    XCTAssertEqual(rgba(end, 80, 50), [255, 0, 0, 255])
    XCTAssertEqual(rgba(end, 50, 10), [0, 0, 255, 255], "the turned square's centre")
  }

  /// The UIKit and CALayer names layer code uses that have nothing to do offscreen: a layer that
  /// draws asynchronously draws the same; an SF Symbol is nil (said once on standard error), as
  /// an image that is not there is; `CFTypeRef` is there to declare with.
  func testNamesWithNothingToDoOffscreenAreThere() throws {
    let layer = CAShapeLayer()
    layer.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
    layer.path = UIBezierPath(rect: layer.bounds).cgPath
    layer.fillColor = UIColor.green.cgColor
    let before = try rendered(layer, width: 20, height: 20, name: "ca-names-sync")
    layer.drawsAsynchronously = true
    let after = try rendered(layer, width: 20, height: 20, name: "ca-names-async")
    XCTAssertEqual(rgba(after, 10, 10), rgba(before, 10, 10))
    XCTAssertEqual(rgba(after, 10, 10), [0, 255, 0, 255])
    XCTAssertNil(UIImage(systemName: "star.fill"))
    let kept: CFTypeRef? = UIColor.red
    XCTAssertNotNil(kept)
  }

  /// A CATextLayer's string as an NSAttributedString with UIKit's keys: each run in its own
  /// colour (and font and size), drawn on both backends.
  func testAnAttributedStringsRunsAreDrawnInTheirColours() throws {
    let text = NSMutableAttributedString(
      string: "MMM", attributes: [.foregroundColor: UIColor.red, .font: UIFont.boldSystemFont(ofSize: 30)])
    text.append(
      NSAttributedString(
        string: "MMM",
        attributes: [
          .foregroundColor: UIColor.blue, .font: UIFont.boldSystemFont(ofSize: 30), .kern: 1,
          .underlineStyle: NSUnderlineStyle.single.rawValue,
        ]))
    let layer = CATextLayer()
    layer.frame = CGRect(x: 0, y: 0, width: 200, height: 50)
    layer.backgroundColor = UIColor.black.cgColor
    layer.string = text
    let runs = try XCTUnwrap(layer.attributedText).runs
    XCTAssertEqual(runs.map(\.text), ["MMM", "MMM"])
    XCTAssertEqual(runs.map(\.fontSize), [30, 30])
    XCTAssertEqual(runs.map(\.kerning), [0, 1])
    XCTAssertEqual(runs.map(\.underline), [false, true])
    let image = try rendered(layer, width: 200, height: 50, name: "ca-names-attributed")
    var (red, blue) = (0, 0)
    for y in 0..<50 {
      for x in 0..<200 {
        let p = rgba(image, x, y)
        if p[0] > 200, p[2] < 60 { red += x < 100 ? 1 : -1000 }
        if p[2] > 200, p[0] < 60 { blue += x >= 60 ? 1 : -1000 }
      }
    }
    XCTAssertGreaterThan(red, 50, "the first run red, on the left")
    XCTAssertGreaterThan(blue, 50, "the second run blue, after it")
  }
}
