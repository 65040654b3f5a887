// The suite's chart, written as SVG text (no raster, no drawing library): frames/s per workload
// and backend at each size, as grouped horizontal bars on a logarithmic axis with labels, so a
// person sees at a glance which backend wins where and by how much; the xfade runs as bars too.

import Foundation

enum Plot {
  static func svg(_ report: SuiteReport) -> String {
    struct Bar {
      var label: String
      var series: String
      var value: Double
    }
    var bars: [Bar] = report.frames.map {
      Bar(label: "\($0.workload) \($0.width)×\($0.height)", series: $0.backend, value: $0.framesPerSecond)
    }
    bars += report.videos.map {
      Bar(label: "\($0.workload) → \($0.sink) \($0.width)×\($0.height)", series: $0.tool, value: $0.framesPerSecond)
    }
    let series = Array(Set(bars.map(\.series))).sorted()
    let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
    let color = Dictionary(uniqueKeysWithValues: series.enumerated().map { ($1, palette[$0 % palette.count]) })
    var labels: [String] = []
    for bar in bars where !labels.contains(bar.label) { labels.append(bar.label) }
    let barHeight = 12.0
    let left = 300.0
    let plotWidth = 620.0
    // The legend, four entries a row above the bars.
    let legendRows = (series.count + 3) / 4
    let top = 50.0 + 16 * Double(legendRows)
    var y = top
    let maxValue = max(10, bars.map(\.value).max() ?? 10)
    let decades = Int(log10(maxValue).rounded(.up))
    func x(_ v: Double) -> Double { left + plotWidth * max(0, log10(max(v, 1))) / Double(decades) }
    var body: [String] = []
    for label in labels {
      let group = bars.filter { $0.label == label }
      body.append(
        "<text x=\"\(left - 8)\" y=\"\(y + barHeight * Double(group.count) / 2 + 4)\" text-anchor=\"end\">\(escape(label))</text>"
      )
      for bar in group {
        body.append(
          String(
            format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%@\"/>", left, y,
            x(bar.value) - left, barHeight - 2, color[bar.series]!))
        body.append(
          String(format: "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%.1f</text>", x(bar.value) + 4, y + 9, bar.value)
        )
        y += barHeight
      }
      y += 6
    }
    // The axis: decades of frames/s.
    var axis: [String] = []
    for d in 0...decades {
      let v = pow(10, Double(d))
      let gx = left + plotWidth * Double(d) / Double(decades)
      axis.append("<line x1=\"\(gx)\" y1=\"\(top - 6)\" x2=\"\(gx)\" y2=\"\(y)\" stroke=\"#ddd\"/>")
      axis.append("<text x=\"\(gx)\" y=\"\(y + 16)\" text-anchor=\"middle\">\(Int(v))</text>")
    }
    axis.append(
      "<text x=\"\(left + plotWidth / 2)\" y=\"\(y + 34)\" text-anchor=\"middle\">frames per second (log scale; more is faster)</text>"
    )
    let legend = series.enumerated().map { i, s in
      let lx = 10 + Double(i % 4) * 240
      let ly = 28 + 16 * Double(i / 4)
      return "<rect x=\"\(lx)\" y=\"\(ly)\" width=\"12\" height=\"12\" fill=\"\(color[s]!)\"/>"
        + "<text x=\"\(lx + 16)\" y=\"\(ly + 10)\">\(escape(s))</text>"
    }
    let machine = escape(report.machine["gpu"].map { "GPU: \($0)" } ?? "CPU only")
    let height = y + 50
    return """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(left + plotWidth + 80))" height="\(Int(height))" \
      font-family="sans-serif" font-size="11">
      <rect width="100%" height="100%" fill="white"/>
      <text x="10" y="18" font-size="14">layerkit-bench: frames/s by workload and backend (\(machine), \
      \(report.machine["cpus"] ?? "?") CPUs)</text>
      \((legend + axis + body).joined(separator: "\n"))
      </svg>

      """
  }

  static func escape(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}
