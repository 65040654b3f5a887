// libFuzzer target: any bytes as a transition in the gl-transitions form. The parser (uniforms,
// their defaults, the transition function) ends in a source or a TransitionSourceError; it never
// compiles anything, so no GL display is needed.
import Foundation
import FuzzDriver
import LayerKitGL

@_cdecl("fuzz_gl_transition_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  runFuzzer(argc, argv, fuzzGLTransition)
}

let fuzzGLTransition: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { bytes, count in
  guard let bytes else { return 0 }
  let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  _ = try? GLTransitionSource(text: text, file: "fuzz.glsl")
  return 0
}
