import Foundation

// Custom animatable properties on a layer subclass, as Core Animation code declares them with
// `@NSManaged` (a dynamic property backed by the layer's key-value storage). `@NSManaged` needs
// the Objective-C runtime; the Swift way is `@Managed`, the same line with the NS dropped:
//
//     final class ProgressLayer: Layer {
//       @Managed var progress: CGFloat
//       override class func needsDisplay(forKey key: String) -> Bool {
//         key == "progress" || super.needsDisplay(forKey: key)
//       }
//       override func draw(in ctx: CGContext) { … progress … }
//     }
//
// The value lives under the property's name in the layer's key-value storage, so
// `setValue(_:forKey:)` and `value(forKey:)` reach it, presentation copies carry it, and an
// animation of that key path interpolates it. A key for which `needsDisplay(forKey:)` is true
// redraws the layer when it changes, and every frame while it is animated: `draw(in:)` runs on
// the model layer with its managed properties reading their presented values.

/// A layer property kept in the layer's key-value storage and animatable by its name, as
/// `@NSManaged` properties are in Core Animation. Unset, it reads `defaultValue(forKey:)` of
/// the layer's class, else the initial value written in the declaration, else zero.
@propertyWrapper
public struct Managed<Value: Animatable>: ManagedStorage, Sendable {
  let initial: Value?
  let id = ManagedID.next()

  public init() { initial = nil }
  public init(wrappedValue: Value) { initial = wrappedValue }

  @available(*, unavailable, message: "@Managed is for properties of a Layer subclass")
  public var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }
  }

  public static subscript<L: Layer>(
    _enclosingInstance layer: L, wrapped _: ReferenceWritableKeyPath<L, Value>,
    storage storage: ReferenceWritableKeyPath<L, Managed<Value>>
  ) -> Value {
    get {
      let me = layer[keyPath: storage]
      let name = layer.managedName(storage, id: me.id)
      // While the layer draws a presented frame, its properties read what is presented.
      let source = PresentedDrawing.current(for: layer) ?? layer
      return me.value(source.keyedValues[name], name: name, layerType: type(of: layer))
    }
    set {
      let me = layer[keyPath: storage]
      let name = layer.managedName(storage, id: me.id)
      let old = me.value(layer.keyedValues[name], name: name, layerType: type(of: layer))
      let action = layer.actionBeforeChange(name, from: old, to: newValue)
      layer.keyedValues[name] = newValue
      layer.managedDidChange(name, from: old, to: newValue, action: action)
    }
  }

  func value(_ stored: Any?, name: String, layerType: Layer.Type) -> Value {
    func typed(_ v: Any?) -> Value? { (v as? Value) ?? (v as? any AnimationValue).flatMap(Value.converted(from:)) }
    return typed(stored) ?? typed(layerType.defaultValue(forKey: name)) ?? initial ?? Value.zero
  }

  // ManagedStorage
  var storageID: Int { id }
  func resolved(name: String) -> ResolvedProperty {
    .make(
      name, { layer in self.value(layer.keyedValues[name], name: name, layerType: type(of: layer)) },
      { layer, v in layer.keyedValues[name] = v })
  }
}

/// What every `@Managed` property has, whatever its type.
protocol ManagedStorage {
  var storageID: Int { get }
  func resolved(name: String) -> ResolvedProperty
}

/// Tells the managed properties apart, so a property can find its own name (by reflection).
enum ManagedID {
  private static let counter = Locked(0)
  static func next() -> Int {
    counter.withLock {
      $0 += 1
      return $0
    }
  }
}

/// The model layer being drawn for a presented frame, and the presentation copy whose values its
/// managed properties read meanwhile (per thread).
enum PresentedDrawing {
  private static let slot = ThreadLocal<(model: ObjectIdentifier, copy: Layer)>(key: "LayerKit.PresentedDrawing")

  static func current(for layer: Layer) -> Layer? {
    guard let drawing = slot.value, drawing.model == ObjectIdentifier(layer) else { return nil }
    return drawing.copy
  }

  static func drawing<R>(_ model: Layer, as copy: Layer, _ body: () -> R) -> R {
    slot.with((ObjectIdentifier(model), copy), body)
  }
}

extension Layer {
  /// The `@Managed` properties of the layer's class, by name (found once a class, by reflection).
  var managedProperties: [String: any ManagedStorage] {
    let type = ObjectIdentifier(Swift.type(of: self))
    if let known = Layer.managedByClass.withLock({ $0[type] }) { return known }
    var found: [String: any ManagedStorage] = [:]
    var mirror: Mirror? = Mirror(reflecting: self)
    while let m = mirror {
      for child in m.children {
        guard let label = child.label, label.hasPrefix("_"), let storage = child.value as? any ManagedStorage else {
          continue
        }
        found[String(label.dropFirst())] = storage
      }
      mirror = m.superclassMirror
    }
    Layer.managedByClass.withLock { $0[type] = found }
    return found
  }

  private static let managedByClass = Locked([ObjectIdentifier: [String: any ManagedStorage]]())

  /// The name of the managed property stored at `storage` (whose storage has `id` in this
  /// layer): found by reflection once, then kept by key path.
  func managedName(_ storage: AnyKeyPath, id: Int) -> String {
    if let name = Layer.managedNames.withLock({ $0[storage] }) { return name }
    var mirror: Mirror? = Mirror(reflecting: self)
    while let m = mirror {
      for child in m.children {
        if let label = child.label, let s = child.value as? any ManagedStorage, s.storageID == id {
          let name = String(label.dropFirst())
          Layer.managedNames.withLock { $0[storage] = name }
          return name
        }
      }
      mirror = m.superclassMirror
    }
    return ""
  }

  private static let managedNames = Locked([AnyKeyPath: String]())

  /// A managed property's key path, resolved like a built-in one (nil when the class has none).
  func managedProperty(_ keyPath: String) -> ResolvedProperty? {
    managedProperties[keyPath]?.resolved(name: keyPath)
  }

  /// A key path this layer animates: a built-in property's, else one of its `@Managed` ones.
  func resolveProperty(_ keyPath: String) -> ResolvedProperty? {
    AnimatableProperties.resolve(keyPath) ?? managedProperty(keyPath)
  }

  func managedDidChange<V: Animatable>(_ key: String, from old: V, to new: V, action: Animation?) {
    if old != new, Swift.type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
    didChange(key, from: old, to: new, action: action)
  }

  /// Whether `animation` (or a child of a group, at any depth) animates a key for which the
  /// layer's class's `needsDisplay(forKey:)` is true: asked once, when it is added.
  func animatesDisplayedKey(_ animation: Animation) -> Bool {
    switch animation {
    case let g as AnimationGroup: g.animations.contains(where: animatesDisplayedKey)
    case let p as PropertyAnimation: Swift.type(of: self).needsDisplay(forKey: p.keyPath)
    default: false
    }
  }
}
