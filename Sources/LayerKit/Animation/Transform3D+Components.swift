extension Transform3D {
  /// The transform with some of its decomposed translation components replaced.
  func settingTranslation(x: Double? = nil, y: Double? = nil, z: Double? = nil) -> Transform3D {
    var d = decomposed() ?? .identity
    if let x { d.translation.x = x }
    if let y { d.translation.y = y }
    if let z { d.translation.z = z }
    return Transform3D(d)
  }

  /// The transform with some of its decomposed scale components replaced.
  func settingScale(x: Double? = nil, y: Double? = nil, z: Double? = nil) -> Transform3D {
    var d = decomposed() ?? .identity
    if let x { d.scale.x = x }
    if let y { d.scale.y = y }
    if let z { d.scale.z = z }
    return Transform3D(d)
  }

  /// The transform with some of its rotation's Euler angles (x, then y, then z) replaced.
  func settingRotation(x: Double? = nil, y: Double? = nil, z: Double? = nil) -> Transform3D {
    var d = decomposed() ?? .identity
    var e = d.eulerAngles
    if let x { e.x = x }
    if let y { e.y = y }
    if let z { e.z = z }
    d.eulerAngles = e
    return Transform3D(d)
  }
}
