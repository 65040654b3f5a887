import LayerKit

// Core Animation code whose `import UIKit` became `import LayerKit`, and nothing else: this file
// imports LayerKit alone (no Foundation, no XCTest), so CGRect, CGFloat, NSNumber, NSValue and
// NSCoder come through it as they come through UIKit. RealCodeFormsTests renders what it builds.

/// A card with a badge and a pulsing ring, written as a view's layer code writes it.
func cardBuiltWithImportLayerKitAlone() -> Layer {
  let card = Layer()
  card.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
  card.backgroundColor = UIColor(red: 0.2, green: 0.4, blue: 1.0, alpha: 1.0).cgColor
  card.cornerRadius = 12
  let ring = ShapeLayer()
  ring.path = UIBezierPath(ovalIn: CGRect(x: 20, y: 20, width: 60, height: 60)).cgPath
  ring.fillColor = nil
  ring.strokeColor = UIColor.white.cgColor
  ring.lineWidth = 6
  card.addSublayer(ring)
  let pulse = KeyframeAnimation(keyPath: "transform.scale")
  pulse.values = [1, 1.1, 1]
  pulse.keyTimes = [0, NSNumber(value: 0.5), 1]
  pulse.duration = 1
  pulse.repeatCount = HUGE
  ring.add(pulse, forKey: "pulse")
  let corner: CGFloat = card.bounds.width / 2
  let badge = Layer()
  badge.frame = CGRect(x: corner + 20, y: 10, width: 20, height: 20)
  badge.backgroundColor = UIColor.systemRed.cgColor
  badge.position = NSValue(cgPoint: CGPoint(x: 80, y: 20)).cgPointValue
  card.addSublayer(badge)
  return card
}
