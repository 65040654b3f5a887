import Foundation
import LayerKitMedia

/// The library's errors in the command line's words. Library errors say what went wrong in the
/// library's terms (`VideoError`, `GLError`: "name the format", "the frame time limit", "the CPU
/// backend"); where such a phrase stands for a setting a flag makes, the command names the flag
/// (as swift-argument-parser's `ValidationError` words its own).
func commandLineMessage(_ error: Error) -> String {
  var text = plainFileError(error) ?? String(describing: error)
  for (library, flag) in flagWording where text.contains(library) {
    text = text.replacingOccurrences(of: library, with: flag)
  }
  return text
}

/// Library phrases and what the command line says instead.
private let flagWording: [(String, String)] = [
  ("or name the format", "or --format"),
  ("allow replacing them", "pass --overwrite to replace them"),
  ("shorten its transitions or lengthen the item", "shorten --transition-duration or lengthen --hold"),
  ("(the frame time limit)", "(--frame-time-limit)"),
  ("raise the limit, or set none,", "raise --frame-time-limit, or 0 for none,"),
  ("the pixel format ", "--pix-fmt "),
  ("a LayerKit render of a frame range (a shard)", "a LayerKit render made with --shard or --frames"),
  (
    "(parts made elsewhere join unchecked, in the order given)",
    "(join parts made elsewhere, in the order given, with --unchecked)"
  ),
  ("the CPU backend (ReferenceRenderer)", "the CPU backend (--renderer cpu)"),
  (
    "render at that size, or pad the frame to it with the background",
    "give that --size, or --pad to add the background"
  ),
]
