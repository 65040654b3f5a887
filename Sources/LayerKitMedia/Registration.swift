import Foundation
import LayerKit

/// Hands the model the PNG and JPEG decoder, so `UIImage(named:)` and `UIImage(contentsOfFile:)`
/// decode with no set-up call. LayerKitMediaRegistration's load-time constructor calls it as a
/// program that links LayerKitMedia loads.
@_cdecl("layerkit_media_register")
public func registerImageDecoder() {
  UIImage.registerDecoder(
    { data, name in try? ImageFile.decode(data, name: name) },
    fileReader: { path in try? ImageFile.read(URL(fileURLWithPath: path)) })
}
