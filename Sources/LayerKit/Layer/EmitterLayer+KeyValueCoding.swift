import Foundation

// Core Animation's key paths into an emitter's cells by name, as particle recipes change a cell
// after the fact: `emitter.setValue(0, forKeyPath: "emitterCells.snow.birthRate")`, nested cells
// as "emitterCells.rocket.emitterCells.spark.velocity". Layer.setValue(_:forKey:) and
// value(forKey:) route these here.

extension EmitterLayer {
  /// The cell a key path names and the property after it; nil when the path is not of the form
  /// `emitterCells.NAME[.emitterCells.NAME…].PROPERTY` or names no cell.
  func cell(at keyPath: String) -> (cell: EmitterCell, property: String)? {
    var parts = keyPath.split(separator: ".").map(String.init)[...]
    var cells = emitterCells
    var found: EmitterCell?
    while parts.count >= 3, parts.first == "emitterCells" {
      let name = parts[parts.startIndex + 1]
      guard let cell = cells?.first(where: { $0.name == name }) else { return nil }
      found = cell
      cells = cell.emitterCells
      parts = parts.dropFirst(2)
    }
    guard let found, parts.count == 1 else { return nil }
    return (found, parts[parts.startIndex])
  }

  /// Sets a cell's property by key path; false when the path or the value does not fit.
  func setCellValue(_ value: Any?, forKeyPath keyPath: String) -> Bool {
    guard let (cell, property) = cell(at: keyPath) else { return false }
    if property == "enabled" || property == "isEnabled" {
      guard let on = value as? Bool else { return false }
      cell.isEnabled = on
      return true
    }
    if property == "color" {
      guard let color = value as? Color else { return false }
      cell.color = color
      return true
    }
    guard let any = value as? any AnimationValue, let n = AnimationValues.numbers(any), n.count == 1 else {
      return false
    }
    if let field = EmitterCell.floatProperties.first(where: { $0.name == property }) {
      cell[keyPath: field.keyPath] = Float(n[0])
    } else if let field = EmitterCell.numberProperties.first(where: { $0.name == property }) {
      cell[keyPath: field.keyPath] = n[0]
    } else {
      return false
    }
    return true
  }

  /// A cell's property by key path (a Double for numbers); nil when the path names none.
  func cellValue(forKeyPath keyPath: String) -> Any? {
    guard let (cell, property) = cell(at: keyPath) else { return nil }
    if property == "enabled" || property == "isEnabled" { return cell.isEnabled }
    if property == "color" { return cell.color }
    if let field = EmitterCell.floatProperties.first(where: { $0.name == property }) {
      return Double(cell[keyPath: field.keyPath])
    }
    return EmitterCell.numberProperties.first(where: { $0.name == property }).map { cell[keyPath: $0.keyPath] }
  }
}

extension EmitterCell {
  /// The Float properties by their Core Animation names, in CAEmitterCell's order (scene files
  /// read and write them by these names too). Made when asked: key paths are not Sendable.
  public static var floatProperties: [(name: String, keyPath: ReferenceWritableKeyPath<EmitterCell, Float>)] {
    [
      ("birthRate", \.birthRate), ("lifetime", \.lifetime), ("lifetimeRange", \.lifetimeRange),
      ("redRange", \.redRange), ("greenRange", \.greenRange), ("blueRange", \.blueRange), ("alphaRange", \.alphaRange),
      ("redSpeed", \.redSpeed), ("greenSpeed", \.greenSpeed), ("blueSpeed", \.blueSpeed), ("alphaSpeed", \.alphaSpeed),
    ]
  }

  /// The Double (CGFloat) properties by their Core Animation names, in CAEmitterCell's order.
  public static var numberProperties: [(name: String, keyPath: ReferenceWritableKeyPath<EmitterCell, Double>)] {
    [
      ("emissionLatitude", \.emissionLatitude), ("emissionLongitude", \.emissionLongitude),
      ("emissionRange", \.emissionRange), ("velocity", \.velocity), ("velocityRange", \.velocityRange),
      ("xAcceleration", \.xAcceleration), ("yAcceleration", \.yAcceleration), ("zAcceleration", \.zAcceleration),
      ("scale", \.scale), ("scaleRange", \.scaleRange), ("scaleSpeed", \.scaleSpeed), ("spin", \.spin),
      ("spinRange", \.spinRange), ("beginTime", \.beginTime),
    ]
  }
}
