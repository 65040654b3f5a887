// Typed names for GL objects. They never leave LayerKitGL as a raw GLuint; GLContext creates and
// deletes each kind in pairs (makeTexture / delete, makeRenderTarget / delete, …).

import CEGL

/// A 2D RGBA8 texture.
struct TextureHandle: Hashable {
  let name: GLuint
  let width: Int
  let height: Int
}

/// A framebuffer object.
struct FramebufferHandle: Hashable {
  let name: GLuint
}

/// A linked shader program.
struct ProgramHandle: Hashable {
  let name: GLuint
}

/// A vertex array object.
struct VertexArrayHandle: Hashable {
  let name: GLuint
}

/// A texture with a framebuffer drawing into it: the main target or a group.
struct RenderTarget: Hashable {
  let texture: TextureHandle
  let framebuffer: FramebufferHandle
  var width: Int { texture.width }
  var height: Int { texture.height }
}
