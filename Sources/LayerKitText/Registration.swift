import LayerKit

/// Hands the model a provider of the shared font stack, so a `TextLayer` draws with no set-up
/// call. LayerKitTextRegistration's load-time constructor calls it as a program that links
/// LayerKitText loads; fontconfig and FreeType start only when the first text layer is drawn.
/// `FontStack.install()` still makes the stack the engine at once, and an engine set on
/// `TextLayer.layoutEngine` is used instead.
@_cdecl("layerkit_text_register")
public func registerFontStack() {
  TextLayer.registerLayoutEngineProvider { FontStack.shared }
}
