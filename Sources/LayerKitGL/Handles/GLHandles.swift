// Typed names for GL objects. They never leave LayerKitGL as a raw GLuint; GLContext creates and
// deletes each kind in pairs (makeTexture / delete, makeRenderTarget / delete, …).

import CEGL
import LayerKitRender

/// How many GL objects of each kind a renderer holds (made and not yet deleted).
public struct GLObjectCount: Sendable, Equatable, Codable {
  public var textures = 0
  public var framebuffers = 0
  public var buffers = 0
  public var vertexArrays = 0
  public var programs = 0
  public var syncs = 0

  public var total: Int { textures + framebuffers + buffers + vertexArrays + programs + syncs }
}

/// A 2D texture: RGBA8 (images and surfaces) or RGBA32F (path segments).
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

/// A buffer object holding `bytes` bytes (a pixel-pack buffer the target is read back into).
struct BufferHandle: Hashable {
  let name: GLuint
  let bytes: Int
}

/// A vertex array object.
struct VertexArrayHandle: Hashable {
  let name: GLuint
}

/// A texture with a framebuffer drawing into it: the storage of a surface (the main target, a
/// group, a backdrop copy or a filter's output).
struct RenderTarget: Hashable {
  let texture: TextureHandle
  let framebuffer: FramebufferHandle
  var width: Int { texture.width }
  var height: Int { texture.height }
}

/// A surface of a RenderList while it executes: its storage and the target pixels it covers
/// (texel (i, j) is target pixel (bounds.x + i, bounds.y + j)).
struct Surface {
  let target: RenderTarget
  let bounds: PixelRect
}

/// The texture units the programs read, one per role, fixed in every program's sampler uniforms
/// when it is built.
enum TextureUnit: Int, CaseIterable {
  /// The paint (layer_quad) or the input surface (effects).
  case paint = 0
  /// Draw.mask's surface.
  case mask = 1
  /// Draw.backdrop's surface.
  case backdrop = 2
  /// The RGBA32F path segments.
  case segments = 3
  /// Extra textures of a transition shader (its own sampler2D uniforms), in declaration order.
  case extra0 = 4, extra1, extra2, extra3
  /// The R8 coverage mask of a draw (Shape.coverage).
  case coverage = 8

  static let count = allCases.count
}
