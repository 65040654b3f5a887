import Foundation
import LayerKit

/// One layer property with its value: a typed assignment to a `Layer`, the unit of a scene file's
/// layer objects and of a timeline's `set` changes. Each case is the Layer property of the same
/// name (`hidden` is `isHidden`, `doubleSided` is `isDoubleSided`, as CALayer's key names go), and
/// its JSON key is that name too. `frame` is the one derived property: it sets `bounds.size` and
/// `position` as `Layer.frame` does.
public enum LayerProperty: Equatable, Sendable {
  case bounds(Rect)
  case position(Point)
  case anchorPoint(Point)
  case frame(Rect)
  case zPosition(Double)
  case anchorPointZ(Double)
  case transform(Transform3D)
  case sublayerTransform(Transform3D)
  case opacity(Double)
  case hidden(Bool)
  case backgroundColor(Color?)
  /// The image of a `media` entry, by name in the file.
  case contents(Image?)
  case contentsRect(Rect)
  case contentsCenter(Rect)
  case contentsGravity(ContentsGravity)
  case maskedCorners(CornerMask)
  case cornerCurve(CornerCurve)
  case magnificationFilter(ContentsFilter)
  case minificationFilter(ContentsFilter)
  case contentsScale(Double)
  case cornerRadius(Double)
  case borderWidth(Double)
  case borderColor(Color)
  case masksToBounds(Bool)
  case doubleSided(Bool)
  case geometryFlipped(Bool)
  case shadowColor(Color)
  case shadowOpacity(Double)
  case shadowOffset(Size)
  case shadowRadius(Double)
  case shadowPath(Path?)
  // GradientLayer's, likewise with "kind": "gradient".
  case colors([Color]?)
  case locations([Double]?)
  case startPoint(Point)
  case endPoint(Point)
  case gradientType(GradientLayer.GradientType)
  // ReplicatorLayer's: a plain layer reads their defaults; a scene file gives them only with
  // "kind": "replicator".
  case instanceCount(Int)
  case instanceTransform(Transform3D)
  case instanceDelay(Double)
  case instanceColor(Color)
  case instanceRedOffset(Double)
  case instanceGreenOffset(Double)
  case instanceBlueOffset(Double)
  case instanceAlphaOffset(Double)
  case preservesDepth(Bool)
  // ShapeLayer's, likewise with "kind": "shape".
  case path(Path?)
  case fillColor(Color?)
  case fillRule(FillRule)
  case strokeColor(Color?)
  case lineWidth(Double)
  case miterLimit(Double)
  case lineCap(ShapeLayer.LineCap)
  case lineJoin(ShapeLayer.LineJoin)
  case lineDashPattern([Double]?)
  case lineDashPhase(Double)
  case strokeStart(Double)
  case strokeEnd(Double)
  // TextLayer's, likewise with "kind": "text".
  case string(AttributedText?)
  case font(String)
  case fontSize(Double)
  case foregroundColor(Color)
  case wrapped(Bool)
  case alignmentMode(TextLayer.AlignmentMode)
  case truncationMode(TextLayer.TruncationMode)
  case filters([Filter])
  case backgroundFilters([Filter])
  case compositingFilter(BlendMode?)
  case timing(MediaTiming)

  /// Every key, in the order properties are applied (and written): `frame` after `anchorPoint`,
  /// because it places the layer by its anchor point.
  public static let keys = [
    "bounds", "position", "anchorPoint", "frame", "zPosition", "anchorPointZ", "transform", "sublayerTransform",
    "opacity",
    "hidden", "backgroundColor", "contents", "contentsRect", "contentsCenter", "contentsGravity", "contentsScale",
    "maskedCorners", "cornerCurve",
    "magnificationFilter",
    "minificationFilter", "cornerRadius",
    "borderWidth", "borderColor", "masksToBounds", "doubleSided", "geometryFlipped", "shadowColor", "shadowOpacity",
    "shadowOffset",
    "shadowRadius", "shadowPath", "colors", "locations", "startPoint", "endPoint", "type", "instanceCount",
    "instanceTransform", "instanceDelay", "instanceColor",
    "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset", "preservesDepth",
    "path", "fillColor", "fillRule", "strokeColor", "lineWidth", "miterLimit", "lineCap", "lineJoin",
    "lineDashPattern", "lineDashPhase", "strokeStart", "strokeEnd",
    "string", "font", "fontSize", "foregroundColor", "wrapped", "alignmentMode", "truncationMode",
    "filters", "backgroundFilters", "compositingFilter", "timing",
  ]

  /// The JSON key (the property's name).
  public var key: String {
    switch self {
    case .bounds: "bounds"
    case .position: "position"
    case .anchorPoint: "anchorPoint"
    case .frame: "frame"
    case .zPosition: "zPosition"
    case .anchorPointZ: "anchorPointZ"
    case .transform: "transform"
    case .sublayerTransform: "sublayerTransform"
    case .opacity: "opacity"
    case .hidden: "hidden"
    case .backgroundColor: "backgroundColor"
    case .contents: "contents"
    case .contentsRect: "contentsRect"
    case .contentsCenter: "contentsCenter"
    case .contentsGravity: "contentsGravity"
    case .maskedCorners: "maskedCorners"
    case .cornerCurve: "cornerCurve"
    case .magnificationFilter: "magnificationFilter"
    case .minificationFilter: "minificationFilter"
    case .contentsScale: "contentsScale"
    case .cornerRadius: "cornerRadius"
    case .borderWidth: "borderWidth"
    case .borderColor: "borderColor"
    case .masksToBounds: "masksToBounds"
    case .doubleSided: "doubleSided"
    case .geometryFlipped: "geometryFlipped"
    case .shadowColor: "shadowColor"
    case .shadowOpacity: "shadowOpacity"
    case .shadowOffset: "shadowOffset"
    case .shadowRadius: "shadowRadius"
    case .shadowPath: "shadowPath"
    case .colors: "colors"
    case .locations: "locations"
    case .startPoint: "startPoint"
    case .endPoint: "endPoint"
    case .gradientType: "type"
    case .instanceCount: "instanceCount"
    case .instanceTransform: "instanceTransform"
    case .instanceDelay: "instanceDelay"
    case .instanceColor: "instanceColor"
    case .instanceRedOffset: "instanceRedOffset"
    case .instanceGreenOffset: "instanceGreenOffset"
    case .instanceBlueOffset: "instanceBlueOffset"
    case .instanceAlphaOffset: "instanceAlphaOffset"
    case .preservesDepth: "preservesDepth"
    case .path: "path"
    case .fillColor: "fillColor"
    case .fillRule: "fillRule"
    case .strokeColor: "strokeColor"
    case .lineWidth: "lineWidth"
    case .miterLimit: "miterLimit"
    case .lineCap: "lineCap"
    case .lineJoin: "lineJoin"
    case .lineDashPattern: "lineDashPattern"
    case .lineDashPhase: "lineDashPhase"
    case .strokeStart: "strokeStart"
    case .strokeEnd: "strokeEnd"
    case .string: "string"
    case .font: "font"
    case .fontSize: "fontSize"
    case .foregroundColor: "foregroundColor"
    case .wrapped: "wrapped"
    case .alignmentMode: "alignmentMode"
    case .truncationMode: "truncationMode"
    case .filters: "filters"
    case .backgroundFilters: "backgroundFilters"
    case .compositingFilter: "compositingFilter"
    case .timing: "timing"
    }
  }

  /// Sets the property on `layer` (through its setter, so a presented layer in a scene runs the
  /// property's action, as a change in code does).
  /// - Parameter layer: the layer to change.
  public func apply(to layer: Layer) {
    switch self {
    case .bounds(let v): layer.bounds = v
    case .position(let v): layer.position = v
    case .anchorPoint(let v): layer.anchorPoint = v
    case .frame(let v): layer.frame = v
    case .zPosition(let v): layer.zPosition = v
    case .anchorPointZ(let v): layer.anchorPointZ = v
    case .transform(let v): layer.transform = v
    case .sublayerTransform(let v): layer.sublayerTransform = v
    case .opacity(let v): layer.opacity = v
    case .hidden(let v): layer.isHidden = v
    case .backgroundColor(let v): layer.backgroundColor = v
    case .contents(let v): layer.contents = v
    case .contentsRect(let v): layer.contentsRect = v
    case .contentsCenter(let v): layer.contentsCenter = v
    case .contentsGravity(let v): layer.contentsGravity = v
    case .maskedCorners(let v): layer.maskedCorners = v
    case .cornerCurve(let v): layer.cornerCurve = v
    case .magnificationFilter(let v): layer.magnificationFilter = v
    case .minificationFilter(let v): layer.minificationFilter = v
    case .contentsScale(let v): layer.contentsScale = v
    case .cornerRadius(let v): layer.cornerRadius = v
    case .borderWidth(let v): layer.borderWidth = v
    case .borderColor(let v): layer.borderColor = v
    case .masksToBounds(let v): layer.masksToBounds = v
    case .doubleSided(let v): layer.isDoubleSided = v
    case .geometryFlipped(let v): layer.isGeometryFlipped = v
    case .shadowColor(let v): layer.shadowColor = v
    case .shadowOpacity(let v): layer.shadowOpacity = v
    case .shadowOffset(let v): layer.shadowOffset = v
    case .shadowRadius(let v): layer.shadowRadius = v
    case .shadowPath(let v): layer.shadowPathValue = v
    case .colors(let v): (layer as? GradientLayer).map { g in g.colors = v }
    case .locations(let v): (layer as? GradientLayer).map { g in g.locations = v?.map { NSNumber(value: $0) } }
    case .startPoint(let v): (layer as? GradientLayer).map { g in g.startPoint = v }
    case .endPoint(let v): (layer as? GradientLayer).map { g in g.endPoint = v }
    case .gradientType(let v): (layer as? GradientLayer).map { g in g.type = v }
    case .instanceCount(let v): (layer as? ReplicatorLayer).map { r in r.instanceCount = v }
    case .instanceTransform(let v): (layer as? ReplicatorLayer).map { r in r.instanceTransform = v }
    case .instanceDelay(let v): (layer as? ReplicatorLayer).map { r in r.instanceDelay = v }
    case .instanceColor(let v): (layer as? ReplicatorLayer).map { r in r.instanceColor = v }
    case .instanceRedOffset(let v): (layer as? ReplicatorLayer).map { r in r.instanceRedOffset = Float(v) }
    case .instanceGreenOffset(let v): (layer as? ReplicatorLayer).map { r in r.instanceGreenOffset = Float(v) }
    case .instanceBlueOffset(let v): (layer as? ReplicatorLayer).map { r in r.instanceBlueOffset = Float(v) }
    case .instanceAlphaOffset(let v): (layer as? ReplicatorLayer).map { r in r.instanceAlphaOffset = Float(v) }
    case .preservesDepth(let v): (layer as? ReplicatorLayer).map { r in r.preservesDepth = v }
    case .path(let v): (layer as? ShapeLayer).map { s in s.pathValue = v }
    case .fillColor(let v): (layer as? ShapeLayer).map { s in s.fillColor = v }
    case .fillRule(let v): (layer as? ShapeLayer).map { s in s.fillRule = v }
    case .strokeColor(let v): (layer as? ShapeLayer).map { s in s.strokeColor = v }
    case .lineWidth(let v): (layer as? ShapeLayer).map { s in s.lineWidth = v }
    case .miterLimit(let v): (layer as? ShapeLayer).map { s in s.miterLimit = v }
    case .lineCap(let v): (layer as? ShapeLayer).map { s in s.lineCap = v }
    case .lineJoin(let v): (layer as? ShapeLayer).map { s in s.lineJoin = v }
    case .lineDashPattern(let v): (layer as? ShapeLayer).map { s in s.lineDashPattern = v }
    case .lineDashPhase(let v): (layer as? ShapeLayer).map { s in s.lineDashPhase = v }
    case .strokeStart(let v): (layer as? ShapeLayer).map { s in s.strokeStart = v }
    case .strokeEnd(let v): (layer as? ShapeLayer).map { s in s.strokeEnd = v }
    case .string(let v): (layer as? TextLayer).map { t in t.string = v.map(LayerProperty.plainWhenPossible) }
    case .font(let v): (layer as? TextLayer).map { t in t.font = v }
    case .fontSize(let v): (layer as? TextLayer).map { t in t.fontSize = v }
    case .foregroundColor(let v): (layer as? TextLayer).map { t in t.foregroundColor = v }
    case .wrapped(let v): (layer as? TextLayer).map { t in t.isWrapped = v }
    case .alignmentMode(let v): (layer as? TextLayer).map { t in t.alignmentMode = v }
    case .truncationMode(let v): (layer as? TextLayer).map { t in t.truncationMode = v }
    case .filters(let v): layer.filters = v
    case .backgroundFilters(let v): layer.backgroundFilters = v
    case .compositingFilter(let v): layer.compositingFilter = v
    case .timing(let v): layer.timing = v
    }
  }

  /// Every stored property of `layer` (not `frame`, which is derived), in `keys` order.
  /// - Parameter layer: the layer to read.
  public static func all(of l: Layer) -> [LayerProperty] {
    [
      .bounds(l.bounds), .position(l.position), .anchorPoint(l.anchorPoint), .zPosition(l.zPosition),
      .anchorPointZ(l.anchorPointZ),
      .transform(l.transform), .sublayerTransform(l.sublayerTransform), .opacity(l.opacity), .hidden(l.isHidden),
      .backgroundColor(l.backgroundColor), .contents(l.contents), .contentsRect(l.contentsRect),
      .contentsCenter(l.contentsCenter),
      .contentsGravity(l.contentsGravity), .contentsScale(l.contentsScale), .maskedCorners(l.maskedCorners),
      .cornerCurve(l.cornerCurve),
      .magnificationFilter(l.magnificationFilter), .minificationFilter(l.minificationFilter),
      .cornerRadius(l.cornerRadius),
      .borderWidth(l.borderWidth), .borderColor(l.borderColor), .masksToBounds(l.masksToBounds),
      .doubleSided(l.isDoubleSided), .geometryFlipped(l.isGeometryFlipped), .shadowColor(l.shadowColor),
      .shadowOpacity(l.shadowOpacity),
      .shadowOffset(l.shadowOffset), .shadowRadius(l.shadowRadius), .shadowPath(l.shadowPathValue),
      .colors((l as? GradientLayer)?.colors), .locations((l as? GradientLayer)?.locations?.map(\.doubleValue)),
      .startPoint((l as? GradientLayer)?.startPoint ?? Point(x: 0.5, y: 0)),
      .endPoint((l as? GradientLayer)?.endPoint ?? Point(x: 0.5, y: 1)),
      .gradientType((l as? GradientLayer)?.type ?? .axial),
      .instanceCount((l as? ReplicatorLayer)?.instanceCount ?? 1),
      .instanceTransform((l as? ReplicatorLayer)?.instanceTransform ?? .identity),
      .instanceDelay((l as? ReplicatorLayer)?.instanceDelay ?? 0),
      .instanceColor((l as? ReplicatorLayer)?.instanceColor ?? .white),
      .instanceRedOffset(Double((l as? ReplicatorLayer)?.instanceRedOffset ?? 0)),
      .instanceGreenOffset(Double((l as? ReplicatorLayer)?.instanceGreenOffset ?? 0)),
      .instanceBlueOffset(Double((l as? ReplicatorLayer)?.instanceBlueOffset ?? 0)),
      .instanceAlphaOffset(Double((l as? ReplicatorLayer)?.instanceAlphaOffset ?? 0)),
      .preservesDepth((l as? ReplicatorLayer)?.preservesDepth ?? false),
      // A plain layer reads as a new ShapeLayer's defaults.
      .path((l as? ShapeLayer)?.pathValue), .fillColor(l is ShapeLayer ? (l as! ShapeLayer).fillColor : .black),
      .fillRule((l as? ShapeLayer)?.fillRule ?? .nonZero), .strokeColor((l as? ShapeLayer)?.strokeColor),
      .lineWidth((l as? ShapeLayer)?.lineWidth ?? 1), .miterLimit((l as? ShapeLayer)?.miterLimit ?? 10),
      .lineCap((l as? ShapeLayer)?.lineCap ?? .butt), .lineJoin((l as? ShapeLayer)?.lineJoin ?? .miter),
      .lineDashPattern((l as? ShapeLayer)?.lineDashPattern), .lineDashPhase((l as? ShapeLayer)?.lineDashPhase ?? 0),
      .strokeStart((l as? ShapeLayer)?.strokeStart ?? 0), .strokeEnd((l as? ShapeLayer)?.strokeEnd ?? 1),
      // A plain layer reads as a new TextLayer's defaults.
      .string((l as? TextLayer)?.attributedText), .font((l as? TextLayer)?.fontName ?? TextLayer.defaultFont),
      .fontSize((l as? TextLayer)?.fontSize ?? 36), .foregroundColor((l as? TextLayer)?.foregroundColor ?? .white),
      .wrapped((l as? TextLayer)?.isWrapped ?? false), .alignmentMode((l as? TextLayer)?.alignmentMode ?? .natural),
      .truncationMode((l as? TextLayer)?.truncationMode ?? .none),
      .filters(l.filters),
      .backgroundFilters(l.backgroundFilters), .compositingFilter(l.compositingFilter), .timing(l.timing),
    ]
  }

  /// The properties of `layer` whose values differ from `reference`'s: what a scene file needs
  /// to write for it.
  /// - Parameters:
  ///   - layer: the layer to describe.
  ///   - reference: a layer with the values the reader starts from (a new `Layer()`).
  public static func changed(in layer: Layer, from reference: Layer) -> [LayerProperty] {
    zip(all(of: layer), all(of: reference)).filter { $0 != $1 }.map(\.0)
  }

  // MARK: JSON

  /// Reads the value of property `key` from `node`.
  static func read(_ key: String, _ node: SceneNode, media: SceneMediaTable) throws(SceneFileError) -> LayerProperty {
    switch key {
    case "bounds": return .bounds(try node.rect())
    case "position": return .position(try node.point())
    case "anchorPoint": return .anchorPoint(try node.point())
    case "frame": return .frame(try node.rect())
    case "zPosition": return .zPosition(try node.number())
    case "anchorPointZ": return .anchorPointZ(try node.number())
    case "transform": return .transform(try node.transform())
    case "sublayerTransform": return .sublayerTransform(try node.transform())
    case "opacity": return .opacity(try node.number())
    case "hidden": return .hidden(try node.bool())
    case "backgroundColor": return .backgroundColor(node.isNull ? nil : try node.color())
    case "contents": return .contents(node.isNull ? nil : try media.image(node))
    case "contentsRect": return .contentsRect(try node.rect())
    case "contentsCenter": return .contentsCenter(try node.rect())
    case "contentsGravity": return .contentsGravity(try node.choice(ContentsGravity.self))
    case "cornerCurve": return .cornerCurve(try node.choice(CornerCurve.self))
    case "maskedCorners":
      var mask: CornerMask = []
      for corner in try node.array("an array of corners: minXMinY, maxXMinY, minXMaxY, maxXMaxY") {
        let name = try corner.choice(names: CornerMask.names.map(\.0))
        mask.insert(CornerMask.names.first { $0.0 == name }!.1)
      }
      return .maskedCorners(mask)
    case "magnificationFilter": return .magnificationFilter(try node.choice(ContentsFilter.self))
    case "minificationFilter": return .minificationFilter(try node.choice(ContentsFilter.self))
    case "contentsScale":
      let s = try node.number("a number > 0")
      guard s > 0 else { throw node.invalid("a number > 0") }
      return .contentsScale(s)
    case "cornerRadius": return .cornerRadius(try node.number(atLeast: 0))
    case "borderWidth": return .borderWidth(try node.number(atLeast: 0))
    case "borderColor": return .borderColor(try node.color())
    case "masksToBounds": return .masksToBounds(try node.bool())
    case "doubleSided": return .doubleSided(try node.bool())
    case "geometryFlipped": return .geometryFlipped(try node.bool())
    case "shadowColor": return .shadowColor(try node.color())
    case "shadowOpacity": return .shadowOpacity(try node.number())
    case "shadowOffset": return .shadowOffset(try node.size())
    case "shadowRadius": return .shadowRadius(try node.number(atLeast: 0))
    case "shadowPath": return .shadowPath(node.isNull ? nil : try node.bezierPath())
    case "colors": return .colors(node.isNull ? nil : try node.colorList())
    case "locations": return .locations(node.isNull ? nil : try node.numberList())
    case "startPoint": return .startPoint(try node.point())
    case "endPoint": return .endPoint(try node.point())
    case "type": return .gradientType(try node.choice(GradientLayer.GradientType.self))
    case "instanceCount":
      let expected = "a whole number from 0 to \(Limits.maxReplicatedInstances)"
      let n = try node.number(expected)
      guard n == n.rounded(), n >= 0, n <= Double(Limits.maxReplicatedInstances) else { throw node.invalid(expected) }
      return .instanceCount(Int(n))
    case "instanceTransform": return .instanceTransform(try node.transform())
    case "instanceDelay": return .instanceDelay(try node.number())
    case "instanceColor": return .instanceColor(try node.color())
    case "instanceRedOffset": return .instanceRedOffset(try node.number())
    case "instanceGreenOffset": return .instanceGreenOffset(try node.number())
    case "instanceBlueOffset": return .instanceBlueOffset(try node.number())
    case "instanceAlphaOffset": return .instanceAlphaOffset(try node.number())
    case "preservesDepth": return .preservesDepth(try node.bool())
    case "path": return .path(node.isNull ? nil : try node.bezierPath())
    case "fillColor": return .fillColor(node.isNull ? nil : try node.color())
    case "fillRule": return .fillRule(try node.choice(FillRule.self))
    case "strokeColor": return .strokeColor(node.isNull ? nil : try node.color())
    case "lineWidth": return .lineWidth(try node.number(atLeast: 0))
    case "miterLimit": return .miterLimit(try node.number(atLeast: 0))
    case "lineCap": return .lineCap(try node.choice(ShapeLayer.LineCap.self))
    case "lineJoin": return .lineJoin(try node.choice(ShapeLayer.LineJoin.self))
    case "lineDashPattern":
      if node.isNull { return .lineDashPattern(nil) }
      let lengths = try node.numberList()
      guard lengths.allSatisfy({ $0 >= 0 }) else { throw node.invalid("an array of lengths ≥ 0") }
      return .lineDashPattern(lengths)
    case "lineDashPhase": return .lineDashPhase(try node.number())
    case "strokeStart": return .strokeStart(try node.number())
    case "strokeEnd": return .strokeEnd(try node.number())
    case "string": return .string(node.isNull ? nil : try SceneText.read(node, media: media))
    case "font": return .font(try SceneText.font(node, media: media))
    case "fontSize": return .fontSize(try node.number(atLeast: 0))
    case "foregroundColor": return .foregroundColor(try node.color())
    case "wrapped": return .wrapped(try node.bool())
    case "alignmentMode": return .alignmentMode(try node.choice(TextLayer.AlignmentMode.self))
    case "truncationMode": return .truncationMode(try node.choice(TextLayer.TruncationMode.self))
    case "filters": return .filters(try SceneFilters.readList(node))
    case "backgroundFilters": return .backgroundFilters(try SceneFilters.readList(node))
    case "compositingFilter": return .compositingFilter(node.isNull ? nil : try node.choice(BlendMode.self))
    default:  // "timing"
      let o = try node.object("a timing object such as {\"speed\": 2}", keys: timingKeys)
      var timing = MediaTiming()
      try o.readTiming(into: &timing)
      return .timing(timing)
    }
  }

  /// Reads every property key present in `object`, in `keys` order. `frame` may not come with
  /// `bounds` or `position`, which it would overwrite.
  static func readAll(_ object: SceneObject, media: SceneMediaTable) throws(SceneFileError) -> [LayerProperty] {
    if object.has("frame"), let other = ["bounds", "position"].first(where: object.has) {
      throw .invalidValue(
        path: SceneNode.join(object.path, "frame"), found: "\"frame\" together with \"\(other)\"",
        expected: "either \"frame\" or \"bounds\" and \"position\" (frame sets both)")
    }
    var out: [LayerProperty] = []
    for key in keys {
      if let node = object[key] { out.append(try read(key, node, media: media)) }
    }
    return out
  }

  /// The property's JSON value.
  func json(media: SceneMediaTable, path: String) throws(SceneFileError) -> JSON {
    typealias W = SceneValueWriter
    switch self {
    case .bounds(let v), .frame(let v), .contentsRect(let v), .contentsCenter(let v): return W.rect(v)
    case .position(let v), .anchorPoint(let v): return W.point(v)
    case .zPosition(let v), .anchorPointZ(let v), .opacity(let v), .contentsScale(let v), .cornerRadius(let v),
      .borderWidth(let v),
      .shadowOpacity(let v), .shadowRadius(let v):
      return .number(v)
    case .transform(let v), .sublayerTransform(let v): return W.transform(v)
    case .hidden(let v), .masksToBounds(let v), .doubleSided(let v), .geometryFlipped(let v): return .bool(v)
    case .backgroundColor(let v): return v.map(W.color) ?? .null
    case .contents(let v):
      return try v.map { (i) throws(SceneFileError) -> JSON in try media.name(of: i, path: path) } ?? .null
    case .contentsGravity(let v): return .string(v.rawValue)
    case .maskedCorners(let v): return .array(CornerMask.names.filter { v.contains($0.1) }.map { .string($0.0) })
    case .cornerCurve(let v): return .string(v.rawValue)
    case .magnificationFilter(let v), .minificationFilter(let v): return .string(v.rawValue)
    case .borderColor(let v), .shadowColor(let v): return W.color(v)
    case .shadowOffset(let v): return W.size(v)
    case .shadowPath(let v): return v.map(W.path) ?? .null
    case .colors(let v): return v.map { .array($0.map(W.color)) } ?? .null
    case .locations(let v): return v.map { .array($0.map(JSON.number)) } ?? .null
    case .startPoint(let v): return W.point(v)
    case .endPoint(let v): return W.point(v)
    case .gradientType(let v): return .string(v.rawValue)
    case .instanceCount(let v): return .number(Double(v))
    case .instanceTransform(let v): return W.transform(v)
    case .instanceDelay(let v): return .number(v)
    case .instanceColor(let v): return W.color(v)
    case .instanceRedOffset(let v): return .number(v)
    case .instanceGreenOffset(let v): return .number(v)
    case .instanceBlueOffset(let v): return .number(v)
    case .instanceAlphaOffset(let v): return .number(v)
    case .preservesDepth(let v): return .bool(v)
    case .path(let v): return v.map(W.path) ?? .null
    case .fillColor(let v), .strokeColor(let v): return v.map(W.color) ?? .null
    case .fillRule(let v): return .string(v.rawValue)
    case .lineWidth(let v), .miterLimit(let v), .lineDashPhase(let v), .strokeStart(let v), .strokeEnd(let v):
      return .number(v)
    case .lineCap(let v): return .string(v.rawValue)
    case .lineJoin(let v): return .string(v.rawValue)
    case .lineDashPattern(let v): return v.map { .array($0.map(JSON.number)) } ?? .null
    case .string(let v): return v.map(SceneText.write) ?? .null
    case .font(let v): return .string(v)
    case .fontSize(let v): return .number(v)
    case .foregroundColor(let v): return W.color(v)
    case .wrapped(let v): return .bool(v)
    case .alignmentMode(let v): return .string(v.rawValue)
    case .truncationMode(let v): return .string(v.rawValue)
    case .filters(let v), .backgroundFilters(let v): return .array(v.map(SceneFilters.write))
    case .compositingFilter(let v): return v.map { .string($0.rawValue) } ?? .null
    case .timing(let t):
      var b = ObjectBuilder()
      W.timing(t, into: &b)
      return b.json
    }
  }
}

extension LayerProperty {
  /// Text of one run with no attributes of its own is the plain String a ported CATextLayer
  /// holds.
  static func plainWhenPossible(_ text: AttributedText) -> Any {
    text.plainString ?? text
  }
}
