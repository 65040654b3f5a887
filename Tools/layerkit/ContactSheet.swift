import Foundation
import LayerKit
import LayerKitMedia

/// A PNG grid of evenly spaced frames, each labelled with its time — a glance at a whole video.
/// Built as a layer tree (thumbnails as contents, labels drawn with a tiny pixel font as small
/// layers) and rendered by the same backend as the video.
enum ContactSheet {
  static func write(_ frames: [(time: Double, image: Image)], renderer: Renderer, to path: String) throws {
    guard let first = frames.first?.image else { return }
    let columns = min(4, frames.count)
    let rows = (frames.count + columns - 1) / columns
    let cellWidth = 320.0
    let cellHeight = (cellWidth * Double(first.height) / Double(first.width)).rounded()
    let gap = 8.0
    let label = 22.0
    let width = gap + Double(columns) * (cellWidth + gap)
    let height = gap + Double(rows) * (cellHeight + label + gap)
    let root = Layer(frame: Rect(x: 0, y: 0, width: width, height: height))
    root.backgroundColor = Color(white: 0.12)
    for (i, frame) in frames.enumerated() {
      let x = gap + Double(i % columns) * (cellWidth + gap)
      let y = gap + Double(i / columns) * (cellHeight + label + gap)
      let thumb = Layer(frame: Rect(x: x, y: y, width: cellWidth, height: cellHeight))
      thumb.contents = frame.image
      thumb.contentsGravity = .resizeAspect
      thumb.backgroundColor = .black
      root.addSublayer(thumb)
      addText(String(format: "%.2f s", frame.time), to: root, x: x + 2, y: y + cellHeight + 5, pixel: 2)
    }
    let image = try renderer.render(root, width: Int(width), height: Int(height))
    try ImageFile.writePNG(image, to: URL(fileURLWithPath: path))
  }

  /// 3×5 glyphs, a row a string ("#" lit).
  static let glyphs: [Character: [String]] = [
    "0": ["###", "#.#", "#.#", "#.#", "###"], "1": [".#.", "##.", ".#.", ".#.", "###"],
    "2": ["###", "..#", "###", "#..", "###"], "3": ["###", "..#", "###", "..#", "###"],
    "4": ["#.#", "#.#", "###", "..#", "..#"], "5": ["###", "#..", "###", "..#", "###"],
    "6": ["###", "#..", "###", "#.#", "###"], "7": ["###", "..#", "..#", "..#", "..#"],
    "8": ["###", "#.#", "###", "#.#", "###"], "9": ["###", "#.#", "###", "..#", "###"],
    ".": ["...", "...", "...", "...", ".#."], "s": ["...", "###", "##.", "..#", "###"],
    " ": ["...", "...", "...", "...", "..."],
  ]

  static func addText(_ text: String, to root: Layer, x: Double, y: Double, pixel: Double) {
    var cursor = x
    for character in text {
      guard let rows = glyphs[character] else { continue }
      for (r, row) in rows.enumerated() {
        for (c, lit) in row.enumerated() where lit == "#" {
          let dot = Layer(
            frame: Rect(x: cursor + Double(c) * pixel, y: y + Double(r) * pixel, width: pixel, height: pixel))
          dot.backgroundColor = .white
          root.addSublayer(dot)
        }
      }
      cursor += 4 * pixel
    }
  }
}
