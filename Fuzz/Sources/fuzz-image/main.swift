// libFuzzer target: any bytes as an image file (PNG, JPEG, or neither). Decoding must end in an
// Image or a MediaError — never a trap, a crash or a hang — and an Image must be the size it says.
import Foundation
import FuzzDriver
import LayerKitMedia

@_cdecl("fuzz_image_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  runFuzzer(argc, argv, fuzzImage)
}

let fuzzImage: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { bytes, count in
  guard let bytes else { return 0 }
  let data = Data(bytes: bytes, count: count)
  if let image = try? ImageFile.decode(data, name: "fuzz") {
    precondition(image.pixels.count == image.width * image.height * 4)
  }
  return 0
}
