// layerkit-bench --suite, the editly-spec workload: an edit file in editly's own form, the kind
// of job editly's commonFeatures example is — titles, gradients, Ken Burns, three video cuts,
// transitions, a music bed — rendered by `layerkit edit` to MP4 at 1280×720, and by MoviePy 2
// doing the same (moviepy/editly.py beside this file) where python3 imports it; and the same
// spec at 1080p to Y4M, the frames alone (the target: at least 30 frames/s on the CPU).

import Foundation

extension Suite {
  static let editlyName = "editly spec: 6 clips 720p, titles, gradients, Ken Burns, 3 cuts, music → mp4"
  static let editlyY4MName = "editly spec at 1080p → y4m (frames alone)"

  /// The spec, in editly's JSON5 form, over the edit workload's clips and music and a still.
  static func editlySpec(_ inputs: EditInputs, still: String) -> String {
    let c = inputs.clips
    return """
      // The bench's editly-style spec (written by layerkit-bench).
      {
        width: 1280, height: 720, fps: 30,
        audioFilePath: '\(inputs.music)', loopAudio: true,
        defaults: { duration: 3, transition: { name: 'fade', duration: 0.5 },
                    layer: { fontPath: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf' } },
        clips: [
          { duration: 2, layers: [{ type: 'title-background', text: 'LayerKit',
                                    background: { type: 'linear-gradient', colors: ['#02aab0', '#00cdac'] } }] },
          { transition: { name: 'directional-left', duration: 0.5 },
            layers: [{ type: 'image', path: '\(still)', zoomDirection: 'in' }, { type: 'title', text: 'Ken Burns' }] },
          { layers: [{ type: 'video', path: '\(c[0])', cutFrom: 1, cutTo: 4 }] },
          { layers: [{ type: 'video', path: '\(c[1])', cutFrom: 0, cutTo: 3 }, { type: 'title', text: 'Cuts' }] },
          { layers: [{ type: 'video', path: '\(c[2])', cutFrom: 2, cutTo: 5 }] },
          { duration: 2, layers: [{ type: 'radial-gradient', colors: ['#282850', '#000000'] },
                                  { type: 'title', text: 'The end' }] },
        ],
      }
      """
  }

  func editlyWorkload(_ inputs: EditInputs, ffmpeg: String, in dir: URL) throws -> [ClipRow] {
    let layerkit = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("layerkit").path
    guard FileManager.default.isExecutableFile(atPath: layerkit) else { return [] }
    let still = dir.appendingPathComponent("still.jpg").path
    try Self.shell([
      ffmpeg, "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080", "-frames:v", "1", still,
    ])
    let spec = dir.appendingPathComponent("editly.json5")
    try Self.editlySpec(inputs, still: still).write(to: spec, atomically: true, encoding: .utf8)
    let out = dir.appendingPathComponent("editly.mp4").path
    var rows: [ClipRow] = []
    if selects(Self.editlyName) {
      rows += try runBoth(
        Self.editlyName, layerkit: [layerkit, "edit", spec.path, "--preset", "veryfast", "--overwrite", "-o", out],
        ffmpeg: [], in: dir)
      let c = inputs.clips
      rows += try Self.moviepyRow(Self.editlyName, script: "editly.py", [out, still, c[0], c[1], c[2], inputs.music])
    }
    if selects(Self.editlyY4MName) {
      // Y4M to standard output, which the bench discards: the frames alone, no encoder.
      rows += try runBoth(
        Self.editlyY4MName, layerkit: [layerkit, "edit", spec.path, "--size", "1920x1080", "-o", "-"], ffmpeg: [],
        in: dir)
    }
    try? FileManager.default.removeItem(atPath: out)
    return rows
  }
}
