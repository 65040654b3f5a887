import Foundation
import LayerKit

extension Edit {
  /// gl-transitions names LayerKit's own effects stand in for, where no file of the name is
  /// given: the same motion under another name (gl-transitions' `directional`, whose `direction`
  /// is push's, in the same texture coordinates).
  public static let standIns: [String: TransitionSpec] = [
    "directional": TransitionSpec(effect: "push", parameters: ["direction": .numbers([0, 1])])
  ]

  /// The edit with every transition name that is neither a built-in effect nor a path replaced by
  /// the gl-transitions file of that name in `folder` (case-insensitive), where there is one, else
  /// by LayerKit's stand-in (`standIns`); a `params` direction is kept for the stand-in. editly
  /// looks names up in its gl-transitions collection the same way.
  /// - Throws: `TransitionError.notAFolder`; `.unknownName` for the first name (in sorted order)
  ///   found nowhere.
  public func resolvingTransitions(in folder: String?) throws(TransitionError) -> Edit {
    var files: [String: String] = [:]
    if let folder {
      var isDir: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
        throw .notAFolder(folder)
      }
      for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".glsl") {
        files[String(name.dropLast(5)).lowercased()] = (folder as NSString).appendingPathComponent(name)
      }
    }
    let builtIn = Set(TransitionEffects.all.keys.map { $0.lowercased() }).union(["none", "random"])
    // Names that are neither: refused after all are read, the first named.
    var unknown = Set<String>()
    func resolved(_ t: Transition?) -> Transition? {
      guard var t, let name = t.name else { return t }
      let head = String(name.split(separator: ":", maxSplits: 1).first ?? "")
      guard !builtIn.contains(head.lowercased()), !head.hasSuffix(".glsl") else { return t }
      if let file = files[head.lowercased()] {
        t.name = file + name.dropFirst(head.count)
      } else if let standIn = Self.standIns[head.lowercased()] {
        t.name = standIn.effect
        // The stand-in's own parameters unless params give them.
        t.params = standIn.parameters.merging(t.params ?? [:]) { _, given in given }
      } else if head.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }), !head.isEmpty {
        unknown.insert(head)
      }
      return t
    }
    var edit = self
    let fallback = resolved(edit.defaults?.transition)
    edit.defaults?.transition = fallback
    for i in edit.clips.indices {
      if case .given(let t) = edit.clips[i].transition, let r = resolved(t) { edit.clips[i].transition = .given(r) }
    }
    if let name = unknown.sorted().first { throw .unknownName(name, folder: folder) }
    return edit
  }
}

extension MediaTimingFunction {
  /// editly's curves, as the cubic Béziers CSS gives them.
  static let editlyEasings: [String: (Double, Double, Double, Double)] = [
    "easeOutExpo": (0.16, 1, 0.3, 1), "easeInOutCubic": (0.65, 0, 0.35, 1),
  ]

  /// The timing function an edit's `easing` names: one of Core Animation's names or editly's
  /// `easeOutExpo` and `easeInOutCubic`.
  /// - Throws: `TransitionError.unknownEasing`.
  public init(easing: String) throws(TransitionError) {
    if let name = MediaTimingFunction.Name.allCases.first(where: { $0.rawValue == easing }) {
      self.init(name: name)
    } else if let c = Self.editlyEasings[easing],
      let curve = try? MediaTimingFunction(controlPoints: c.0, c.1, c.2, c.3)
    {
      self = curve
    } else {
      throw .unknownEasing(easing)
    }
  }
}
