import Foundation

/// The nearest of some accepted words to a misspelt one: what error messages suggest ("did you
/// mean …?") for scene files, edit files and the command line's names.
public enum Spelling {
  /// The candidate nearest `word` by edit distance (case-insensitive), when it is near enough to
  /// be a misspelling: at most a third of the longer word's characters (at least 2) differ.
  public static func nearest(to word: String, among candidates: some Sequence<String>) -> String? {
    // A name far longer than any candidate has no near miss (and an edit distance over a
    // 100 MB key would take minutes).
    guard word.utf8.count <= 64 else { return nil }
    var best: (String, Int)?
    for c in candidates {
      let d = editDistance(word.lowercased(), c.lowercased())
      if best == nil || d < best!.1 { best = (c, d) }
    }
    guard let (c, d) = best else { return nil }
    let limit = max(2, max(word.count, c.count) / 3)
    return d <= limit ? c : nil
  }

  /// Levenshtein distance over characters.
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a)
    let y = Array(b)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    var previous = Array(0...y.count)
    var current = [Int](repeating: 0, count: y.count + 1)
    for i in 1...x.count {
      current[0] = i
      for j in 1...y.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[y.count]
  }
}
