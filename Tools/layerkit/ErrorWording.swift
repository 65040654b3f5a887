import Foundation
import LayerKit
import LayerKitMedia

/// The library's errors in the command line's words. Library errors say what went wrong in the
/// library's terms; where their advice names a setting a flag makes (`Setting`), the command
/// names the flag, as swift-argument-parser's `ValidationError` words its own: the message is
/// composed from the typed error with these words (`AdvisedError.message(_:)`), not rewritten.
func commandLineMessage(_ error: Error) -> String {
  if let plain = plainFileError(error) { return plain }
  if let advised = error as? any AdvisedError { return advised.message(flagWords) }
  return String(describing: error)
}

/// Each setting as the command line makes it.
func flagWords(_ setting: Setting) -> String {
  switch setting {
  case .outputFormat: "--format"
  case .replaceFrames: "pass --overwrite to replace them"
  case .transitionFit: "shorten --transition-duration or lengthen --hold"
  case .frameTimeLimit: "--frame-time-limit"
  case .raiseFrameTimeLimit: "raise --frame-time-limit, or 0 for none,"
  case .pixelFormat: "--pix-fmt"
  case .partialRender: "a LayerKit render made with --shard or --frames"
  case .uncheckedJoin: "join parts made elsewhere, in the order given, with --unchecked"
  case .cpuBackend: "the CPU backend (--renderer cpu)"
  case .sizeOrPad: "give that --size, or --pad to add the background"
  case .glTransitionsFolder: "--gl-transitions DIR (or $LAYERKIT_GL_TRANSITIONS)"
  case .soundTracks: "--audio"
  case .frameRange: "--frames"
  case .shard: "--shard"
  case .smartRequired: "--smart on"
  case .gpuBackend: "give --renderer gpu or auto"
  }
}
