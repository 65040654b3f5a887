// libFuzzer target: any bytes as a YUV4MPEG2 stream. The header and every frame must read or end
// in a MediaError; every frame read is exactly the header's layout's size.
import Foundation
import FuzzDriver
import LayerKitMedia

@_cdecl("fuzz_y4m_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  runFuzzer(argc, argv, fuzzY4M)
}

let fuzzY4M: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { bytes, count in
  guard let bytes else { return 0 }
  guard let reader = try? Y4MReader(data: Data(bytes: bytes, count: count), name: "fuzz") else { return 0 }
  // A header may announce huge frames; the data holds at most `count` bytes of them.
  while let frame = try? reader.readFrame() {
    precondition(frame.count == reader.header.layout.byteCount)
  }
  return 0
}
