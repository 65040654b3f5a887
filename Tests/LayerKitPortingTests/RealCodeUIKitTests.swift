import LayerKit
import LayerKitMedia
import XCTest

/// Rows 1–3 of the porting table: UIKit's and AppKit's colour, image, font and screen types,
/// CGColor as a type with Core Graphics' initializers, `HUGE` and `CGVector`.
final class RealCodeUIKitTests: RealCodeTestCase {
  /// A card styled the way view code styles its layer: UIColor's named, component, white and
  /// hue initializers, `withAlphaComponent`, `.cgColor` into every colour property.
  func testCardStyledWithUIColor() throws {
    let card = Layer()
    card.frame = CGRect(x: 10, y: 10, width: 80, height: 80)
    card.backgroundColor = UIColor(red: 0.2, green: 0.4, blue: 1.0, alpha: 1.0).cgColor
    card.borderColor = UIColor.white.withAlphaComponent(0.5).cgColor
    card.borderWidth = 2
    card.cornerRadius = 12
    card.shadowColor = UIColor.black.cgColor
    card.shadowOpacity = 0.3
    card.shadowOffset = CGSize(width: 0, height: 2)
    let badge = Layer()
    badge.frame = CGRect(x: 50, y: 10, width: 20, height: 20)
    badge.backgroundColor = UIColor(hue: 0, saturation: 1, brightness: 1, alpha: 1).cgColor
    card.addSublayer(badge)
    let dim = Layer()
    dim.frame = CGRect(x: 10, y: 50, width: 20, height: 20)
    dim.backgroundColor = UIColor(white: 0, alpha: 0.5).cgColor
    card.addSublayer(dim)
    let root = Layer()
    root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    root.addSublayer(card)

    let image = try rendered(root, name: "card")
    XCTAssertEqual(rgba(image, 30, 30), [51, 102, 255, 255], "UIColor(red: 0.2, green: 0.4, blue: 1, alpha: 1)")
    XCTAssertEqual(rgba(image, 70, 30), [255, 0, 0, 255], "hue 0, full saturation and brightness: red")
    XCTAssertEqual(rgba(image, 30, 70), [25, 51, 127, 255], "half-transparent black over the card")
    XCTAssertEqual(UIColor.systemBlue.cgColor, CGColor(red: 0, green: 122 / 255, blue: 1, alpha: 1))
    XCTAssertEqual(UIColor(named: "systemRed"), UIColor.systemRed)
    XCTAssertNil(UIColor(named: "BrandPrimary"), "no asset catalogue: a name UIKit does not have is nil")
    var (r, g, b, a): (CGFloat, CGFloat, CGFloat, CGFloat) = (0, 0, 0, 0)
    UIColor.orange.getRed(&r, green: &g, blue: &b, alpha: &a)
    XCTAssertEqual([r, g, b, a], [1, 0.5, 0, 1])
    var (h, s, v): (CGFloat, CGFloat, CGFloat) = (0, 0, 0)
    UIColor(red: 0, green: 1, blue: 1, alpha: 1).getHue(&h, saturation: &s, brightness: &v, alpha: &a)
    XCTAssertEqual(h, 0.5, accuracy: 1e-9)
  }

  /// macOS layer code: NSColor's calibrated and device initializers, `.cgColor`.
  func testMacLayerWithNSColor() throws {
    let layer = Layer()
    layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    layer.backgroundColor = NSColor(calibratedRed: 1, green: 0.5, blue: 0, alpha: 1).cgColor
    let inner = Layer()
    inner.frame = CGRect(x: 25, y: 25, width: 50, height: 50)
    inner.backgroundColor = NSColor(deviceWhite: 1, alpha: 1).cgColor
    layer.addSublayer(inner)
    let image = try rendered(layer, name: "nscolor")
    XCTAssertEqual(rgba(image, 5, 5), [255, 128, 0, 255])
    XCTAssertEqual(rgba(image, 50, 50), [255, 255, 255, 255])
  }

  /// CGColor as a type, with Core Graphics' initializers and accessors.
  func testCGColorAsCoreGraphicsHasIt() throws {
    let accent: CGColor = CGColor(red: 0, green: 0.5, blue: 1, alpha: 1)
    let grey = CGColor(gray: 0.5, alpha: 1)
    let faded = accent.copy(alpha: 0.5)!
    XCTAssertEqual(faded.alpha, 0.5)
    XCTAssertEqual(accent.components, [0, 0.5, 1, 1])
    XCTAssertEqual(accent.numberOfComponents, 4)
    XCTAssertEqual(CGColor(srgbRed: 1, green: 0, blue: 0, alpha: 1), CGColor.red)
    let space = CGColorSpaceCreateDeviceRGB()
    let components: [CGFloat] = [1, 1, 0, 1]
    let yellow = CGColor(colorSpace: space, components: components)!
    XCTAssertEqual(yellow, .yellow)
    XCTAssertNil(CGColor(colorSpace: space, components: [0.5, 1]), "a grey's two components in an RGB space")

    let gradient = GradientLayer()
    gradient.frame = CGRect(x: 0, y: 0, width: 100, height: 20)
    gradient.colors = [accent, CGColor.white, grey, faded]
    let stripe = Layer()
    stripe.frame = CGRect(x: 0, y: 50, width: 100, height: 50)
    stripe.backgroundColor = CGColor.black
    let root = Layer()
    root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    root.addSublayer(gradient)
    root.addSublayer(stripe)
    let image = try rendered(root, name: "cgcolor")
    XCTAssertEqual(rgba(image, 50, 75), [0, 0, 0, 255])
    let top = rgba(image, 50, 0)
    XCTAssertTrue(top[0] < 32 && top[2] == 255, "the first stop at the top: \(top)")
  }

  /// A pulse that repeats forever as older code writes it (`repeatCount = HUGE`), and CGVector.
  func testPulseRepeatingHUGE() throws {
    let pulse = BasicAnimation(keyPath: "opacity")
    pulse.fromValue = 1
    pulse.toValue = 0
    pulse.duration = 1
    pulse.autoreverses = true
    pulse.repeatCount = HUGE
    let dot = Layer()
    dot.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    dot.backgroundColor = UIColor.red.cgColor
    dot.add(pulse, forKey: "pulse")
    XCTAssertNotNil(dot.animation(forKey: "pulse"))
    let image = try rendered(dot, at: 1000.5, name: "huge")
    XCTAssertEqual(rgba(image, 50, 50)[3], 128, "half way through its five hundredth repeat")
    let velocity = CGVector(dx: 0, dy: -20)
    XCTAssertEqual(velocity.dy, -20)
    XCTAssertEqual(CGVector.zero, CGVector(dx: 0, dy: 0))
  }

  /// A particle picture and a layer's contents from `UIImage(named:)?.cgImage`; the image file is
  /// looked for in `UIImage.searchPaths`, where an app's bundle would be.
  func testContentsFromUIImageNamed() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-uiimage-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try ImageFile.writePNG(
      try Image(width: 4, height: 4, color: .green), to: folder.appendingPathComponent("leaf@2x.png"))
    let saved = UIImage.searchPaths
    UIImage.searchPaths = [folder.path]
    defer { UIImage.searchPaths = saved }

    let layer = Layer()
    layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    layer.contents = UIImage(named: "leaf")?.cgImage
    XCTAssertNotNil(layer.contents)
    XCTAssertEqual(UIImage(named: "leaf")?.size, CGSize(width: 2, height: 2), "a @2x file is two pixels a point")
    XCTAssertNil(UIImage(named: "missing"), "a name found nowhere is nil, as in UIKit")
    XCTAssertNil(UIImage(contentsOfFile: folder.path), "a folder is no image")
    let fifo = folder.appendingPathComponent("pipe.png").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    XCTAssertNil(UIImage(contentsOfFile: fifo), "a FIFO is refused at once, not waited on")
    let corrupt = folder.appendingPathComponent("broken.png")
    try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: corrupt)
    XCTAssertNil(UIImage(contentsOfFile: corrupt.path), "a damaged file is nil")
    XCTAssertNil(UIImage(data: Data("not an image".utf8)))
    let cell = EmitterCell()
    cell.contents = UIImage(contentsOfFile: folder.appendingPathComponent("leaf@2x.png").path)?.cgImage
    XCTAssertNotNil(cell.contents)
    let image = try rendered(layer, name: "uiimage")
    XCTAssertEqual(rgba(image, 50, 50), [0, 255, 0, 255])
  }

  /// A text layer set up as view code does: a UIFont (whose size the layer ignores, as Core
  /// Animation documents), a Core Text font from a CFString, the screen's scale.
  func testTextLayerWithUIFontAndCTFont() throws {
    let label = TextLayer()
    label.frame = CGRect(x: 0, y: 0, width: 100, height: 50)
    label.font = UIFont.boldSystemFont(ofSize: 17)
    label.fontSize = 20
    label.string = "Hi"
    label.foregroundColor = UIColor.black.cgColor
    label.contentsScale = UIScreen.main.scale
    XCTAssertEqual(label.fontName, "sans-serif:bold")
    let title = TextLayer()
    title.frame = CGRect(x: 0, y: 50, width: 100, height: 50)
    title.font = CTFontCreateWithName("DejaVuSans" as CFString, 24, nil)
    title.fontSize = 24
    title.string = "Hi"
    title.foregroundColor = UIColor.black.cgColor
    let named = TextLayer()
    named.font = UIFont(name: "Helvetica-Bold", size: 12)
    XCTAssertEqual(named.fontName, "Helvetica-Bold")
    named.font = "Menlo" as CFString
    XCTAssertEqual(named.fontName, "Menlo")
    let root = Layer()
    root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    root.backgroundColor = UIColor.white.cgColor
    root.addSublayer(label)
    root.addSublayer(title)
    let image = try rendered(root, name: "fonts")
    let inked = (0..<100).flatMap { y in (0..<100).map { x in rgba(image, x, y)[0] < 128 ? 1 : 0 } }.reduce(0, +)
    XCTAssertGreaterThan(inked, 100, "both labels drew ink")
  }

  /// UIKit drawing in a layer's `draw(in:)` between UIGraphicsPushContext and PopContext:
  /// `UIColor.setFill()`, `UIBezierPath.fill()` and `stroke()` with the path's own line width.
  func testUIKitDrawingInDrawIn() throws {
    final class Badge: Layer {
      override func draw(in ctx: CGContext) {
        UIGraphicsPushContext(ctx)
        UIColor.red.setFill()
        UIBezierPath(ovalIn: bounds.insetBy(dx: 10, dy: 10)).fill()
        let ring = UIBezierPath(roundedRect: bounds.insetBy(dx: 2, dy: 2), cornerRadius: 8)
        ring.lineWidth = 4
        UIColor.blue.setStroke()
        ring.stroke()
        UIGraphicsPopContext()
      }
    }
    let badge = Badge()
    badge.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    badge.setNeedsDisplay()
    XCTAssertNil(UIGraphicsGetCurrentContext())
    let image = try rendered(badge, name: "uikit-drawing")
    XCTAssertEqual(rgba(image, 50, 50), [255, 0, 0, 255], "filled by UIColor.setFill()")
    XCTAssertEqual(rgba(image, 50, 2), [0, 0, 255, 255], "stroked 4 wide by the path's lineWidth")
    XCTAssertNil(UIGraphicsGetCurrentContext(), "popped")
  }
}
