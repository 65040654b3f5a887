// layerkit-bench --suite, the edit workload: what users bring to editly, MoviePy or an ffmpeg
// filtergraph — four 1080p clips cut, one played at 2×, one looped to fill its slot, fades between,
// a logo over everything, a title, music ducked under the clips' sound and the mix brought to
// −16 LUFS, to MP4 — run by `layerkit slideshow`, by one ffmpeg filtergraph doing the same (printed
// with the table), and by MoviePy 2 (moviepy/edit.py beside this file) where python3 imports it.

import Foundation

extension Suite {
  /// The edit's media: four 8 s 1080p clips with sound, a logo with alpha, a music bed.
  struct EditInputs {
    var clips: [String]
    var logo: String
    var music: String
  }

  func makeEditInputs(ffmpeg: String, in dir: URL) throws -> EditInputs {
    let sources = ["testsrc2", "testsrc", "smptehdbars", "rgbtestsrc"]
    let clips = try sources.enumerated().map { i, source in
      let path = dir.appendingPathComponent("edit\(i).mp4").path
      try Self.shell([
        ffmpeg, "-v", "error", "-y", "-f", "lavfi", "-i", "\(source)=size=1920x1080:rate=30", "-f", "lavfi", "-i",
        "sine=frequency=\(330 + 110 * i):sample_rate=48000", "-t", "8", "-c:v", "libx264", "-preset", "veryfast",
        "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", path,
      ])
      return path
    }
    let logo = dir.appendingPathComponent("logo.png").path
    try Self.shell([
      ffmpeg, "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=white@0.7:size=400x160,format=rgba", "-frames:v", "1",
      logo,
    ])
    let music = dir.appendingPathComponent("music.wav").path
    try Self.shell([ffmpeg, "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=220:duration=20", music])
    return EditInputs(clips: clips, logo: logo, music: music)
  }

  /// The edit: slots of 3.5, 4, 4 and 3.5 s (holds of 3 s, 0.5 s fades): clip 0 from 1 s, clip 1
  /// its 8 s at 2×, clip 2's 1.5 s from 2 s looped, clip 3 from its start; 13.5 s, 405 frames.
  static let editName = "edit: 4 clips 1080p cut, 2×, loop, logo, title, duck, −16 LUFS → mp4"

  func editWorkload(_ inputs: EditInputs, ffmpeg: String, in dir: URL) throws -> [ClipRow] {
    let layerkit = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("layerkit").path
    guard FileManager.default.isExecutableFile(atPath: layerkit) else { return [] }
    let out = dir.appendingPathComponent("edit.mp4").path
    let c = inputs.clips
    let ours =
      ["slideshow"] + c + [
        "--hold", "3", "--transition", "fade", "--transition-duration", "0.5", "--fps", "30", "--cut", "1:5", "--cut",
        "0:8", "--cut", "2:3.5", "--cut", "0:4", "--speed", "1", "--speed", "2", "--speed", "1", "--speed", "1",
        "--loop", "--title", "LayerKit", "--overlay", inputs.logo, "--overlay-size", "0.15", "--audio", inputs.music,
        "--duck", "10", "--loudness", "-16", "--preset", "veryfast", "--overwrite", "-o", out,
      ]
    let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    let fps = "fps=30,settb=AVTB"
    let graph = [
      "[0:v]trim=1:4.5,setpts=PTS-STARTPTS,\(fps),drawtext=fontfile=\(font):text=LayerKit:fontsize=65:fontcolor=white"
        + ":box=1:boxcolor=black@0.55:boxborderw=20:x=(w-text_w)/2:y=h*0.72[v0]",
      "[1:v]trim=0:8,setpts=0.5*(PTS-STARTPTS),\(fps)[v1]",
      "[2:v]trim=2:3.5,setpts=PTS-STARTPTS,loop=loop=2:size=45,setpts=N/30/TB,trim=duration=4,\(fps)[v2]",
      "[3:v]trim=0:3.5,setpts=PTS-STARTPTS,\(fps)[v3]",
      "[v0][v1]xfade=transition=fade:duration=0.5:offset=3[x1]",
      "[x1][v2]xfade=transition=fade:duration=0.5:offset=6.5[x2]",
      "[x2][v3]xfade=transition=fade:duration=0.5:offset=10[x3]",
      "[4:v]scale=288:-1[logo]", "[x3][logo]overlay=W-w-32:32,format=yuv420p[v]",
      "[0:a]atrim=1:4.5,asetpts=PTS-STARTPTS[a0]", "[1:a]atrim=0:8,asetpts=PTS-STARTPTS,atempo=2[a1]",
      "[2:a]atrim=2:3.5,asetpts=PTS-STARTPTS,aloop=loop=2:size=72000,atrim=0:4[a2]",
      "[3:a]atrim=0:3.5,asetpts=PTS-STARTPTS[a3]",
      "[a0][a1]acrossfade=d=0.5[y1]", "[y1][a2]acrossfade=d=0.5[y2]", "[y2][a3]acrossfade=d=0.5,asplit=2[clips][key]",
      "[5:a]atrim=0:13.5[m]", "[m][key]sidechaincompress=threshold=0.02:ratio=8:attack=20:release=300[ducked]",
      "[clips][ducked]amix=inputs=2:normalize=0,loudnorm=I=-16:TP=-1.5:LRA=11,aresample=48000[a]",
    ].joined(separator: ";")
    let theirs =
      [ffmpeg, "-v", "error"] + c.flatMap { ["-i", $0] } + ["-i", inputs.logo, "-i", inputs.music]
      + ["-filter_complex", graph, "-map", "[v]", "-map", "[a]", "-c:v", "libx264", "-preset", "veryfast"]
      + ["-pix_fmt", "yuv420p", "-c:a", "aac", "-y", out]
    var rows = try runBoth(Self.editName, layerkit: [layerkit] + ours, ffmpeg: theirs, in: dir)
    // MoviePy 2, where python3 has it: the same edit, its script beside this file.
    rows += try Self.moviepyRow(Self.editName, script: "edit.py", [out] + c + [inputs.logo, inputs.music])
    try? FileManager.default.removeItem(atPath: out)
    return rows
  }

  /// MoviePy 2's row of a workload, where python3 has it: `script` (in moviepy/ beside this
  /// file) run with `arguments`; none, said once, where it has not.
  static func moviepyRow(_ workload: String, script: String, _ arguments: [String]) throws -> [ClipRow] {
    guard pythonHasMoviePy() else {
      print("moviepy: not installed for python3 (pip install moviepy), its row is left out")
      return []
    }
    let path = benchFolder.appendingPathComponent("moviepy/\(script)").path
    let command = ["/usr/bin/env", "python3", path] + arguments
    let (seconds, _) = try time(command)
    let row = ClipRow(
      workload: workload, tool: "moviepy", seconds: seconds, stats: nil, command: command.joined(separator: " "))
    print(describe(row))
    return [row]
  }

  /// This source folder (the MoviePy script lives beside it).
  static let benchFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

  static func pythonHasMoviePy() -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import moviepy"]
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}
