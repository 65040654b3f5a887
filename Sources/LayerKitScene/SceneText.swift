import Foundation
import LayerKit
import LayerKitText

/// A text layer's `string` and `font` in scene files: a string, or an array of runs
/// `{"text": "…", "font": "DejaVu Serif", "fontSize": 20, "color": "#FF0000", "underline": true,
/// "kerning": 1}`; a font is a family ("DejaVu Sans:bold") or a font file, relative to the
/// scene file's folder.
enum SceneText {
  static let runKeys = ["text", "font", "fontSize", "color", "underline", "kerning"]

  static func read(_ node: SceneNode, media: SceneMediaTable) throws(SceneFileError) -> AttributedText {
    let text = try runs(node, media: media)
    let length = text.runs.reduce(0) { $0 + $1.text.unicodeScalars.count }
    guard length <= Limits.maxTextLength else {
      throw node.invalid("a text of at most \(Limits.maxTextLength) characters (this one has \(length))")
    }
    return text
  }

  private static func runs(_ node: SceneNode, media: SceneMediaTable) throws(SceneFileError) -> AttributedText {
    if case .string(let s) = node.value { return AttributedText(s) }
    let items = try node.array("a string, or an array of runs such as [{\"text\": \"Hi\", \"color\": \"#FF0000\"}]")
    var runs: [AttributedText.Run] = []
    for item in items {
      if case .string(let s) = item.value {
        runs.append(AttributedText.Run(s))
        continue
      }
      let o = try item.object("a run such as {\"text\": \"Hi\", \"fontSize\": 20}", keys: runKeys)
      guard let text = o["text"] else { throw item.invalid("a run with \"text\"") }
      var run = AttributedText.Run(try text.string())
      if let n = o["font"] { run.font = try font(n, media: media) }
      if let n = o["fontSize"] { run.fontSize = try n.number(atLeast: 0) }
      if let n = o["color"] { run.color = try n.color() }
      if let n = o["underline"] { run.underline = try n.bool() }
      if let n = o["kerning"] { run.kerning = try n.number() }
      runs.append(run)
    }
    return AttributedText(runs: runs)
  }

  /// A family as it is; a font file (a path, or a name ending in .ttf, .otf, .ttc…) relative to
  /// the scene file's folder.
  static func font(_ node: SceneNode, media: SceneMediaTable) throws(SceneFileError) -> String {
    let spec = try node.string("a font family such as \"DejaVu Sans\", or a font file")
    guard FontStack.isPath(spec), !spec.hasPrefix("/"), let folder = media.folder else { return spec }
    return folder.appendingPathComponent(spec).path
  }

  static func write(_ text: AttributedText) -> JSON {
    if let plain = text.plainString { return .string(plain) }
    return .array(
      text.runs.map { run in
        var b = ObjectBuilder()
        b.add("text", .string(run.text))
        b.add("font", run.font.map(JSON.string))
        b.add("fontSize", run.fontSize.map(JSON.number))
        b.add("color", run.color.map(SceneValueWriter.color))
        if run.underline { b.add("underline", .bool(true)) }
        if run.kerning != 0 { b.add("kerning", .number(run.kerning)) }
        return b.json
      })
  }
}
