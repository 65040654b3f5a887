// The GPU memory a renderer keeps between renders, and the rules that bound it:
// - image textures, keyed by Image.id, dropped when the last `keepRenders` renders did not use
//   them (a long video render that brings new images every frame stays flat); a few dropped ones
//   are kept and refilled for the next image of their size (a ring of clip-frame textures);
// - render targets (the main target and groups), pooled by size, trimmed at the end of each
//   render to the number that render used, and of its size.

import LayerKitRender

/// RGBA8 textures of `RenderList.images`, uploaded once per `Image.id`.
struct ImageTextureCache {
  /// Entries not used by this many most recent renders are deleted.
  static let keepRenders = 3

  /// Dropped textures kept for reuse, at most this many.
  static let keepFree = 4

  private var entries: [UInt64: (texture: TextureHandle, lastUsed: Int)] = [:]
  /// Textures no image holds, refilled (glTexSubImage2D) for the next image of their size: a
  /// video's clip frames, a new image every frame, cycle through a few textures instead of
  /// allocating one per frame.
  private var free: [TextureHandle] = []

  var count: Int { entries.count }
  var freeCount: Int { free.count }

  /// The texture of `image`, uploading it on first use (into a free texture of its size when
  /// there is one).
  mutating func texture(for image: Image, render: Int, context: GLContext) throws(GLError)
    -> TextureHandle
  {
    if let entry = entries[image.id] {
      entries[image.id]?.lastUsed = render
      return entry.texture
    }
    let texture: TextureHandle
    if let i = free.firstIndex(where: { $0.width == image.width && $0.height == image.height }) {
      texture = free.remove(at: i)
      do {
        try context.replaceContents(of: texture, with: image.pixels)
      } catch {
        context.delete(texture)
        throw error
      }
    } else {
      texture = try context.makeTexture(width: image.width, height: image.height, pixels: image.pixels)
    }
    entries[image.id] = (texture, render)
    return texture
  }

  /// Drops the textures that the renders after `render - keepRenders` did not use: kept for
  /// reuse up to `keepFree`, deleted beyond.
  mutating func evict(after render: Int, context: GLContext) {
    let oldest = render - Self.keepRenders
    for (id, entry) in entries where entry.lastUsed <= oldest {
      free.append(entry.texture)
      entries[id] = nil
    }
    while free.count > Self.keepFree { context.delete(free.removeFirst()) }
  }

  mutating func removeAll(context: GLContext) {
    for entry in entries.values { context.delete(entry.texture) }
    for texture in free { context.delete(texture) }
    entries = [:]
    free = []
  }
}

/// Target-sized render targets, reused within a render (after `release`) and across renders.
struct RenderTargetPool {
  private var free: [RenderTarget] = []
  private var inUse: [RenderTarget] = []
  /// Released during this render: free again, and counted as used by it.
  private var released: [RenderTarget] = []

  var count: Int { free.count + inUse.count + released.count }

  /// A target of the given size, from the pool or new. Its contents are undefined.
  mutating func take(width: Int, height: Int, context: GLContext) throws(GLError) -> RenderTarget {
    let target: RenderTarget
    if let index = released.firstIndex(where: { $0.width == width && $0.height == height }) {
      target = released.remove(at: index)
    } else if let index = free.firstIndex(where: { $0.width == width && $0.height == height }) {
      target = free.remove(at: index)
    } else {
      target = try context.makeRenderTarget(width: width, height: height)
    }
    inUse.append(target)
    return target
  }

  /// `target` is no longer read: later takes of this render may reuse it. A target the pool
  /// had let go (`detach`) comes back into it.
  mutating func release(_ target: RenderTarget) {
    if let index = inUse.lastIndex(of: target) { inUse.remove(at: index) }
    released.append(target)
  }

  /// `target` (taken this render) now belongs to someone else until it is released.
  mutating func detach(_ target: RenderTarget) {
    if let index = inUse.lastIndex(of: target) { inUse.remove(at: index) }
  }

  /// Returns every target taken since the last call to the pool and deletes the free ones this
  /// render did not need, so the pool holds what the last render used and no more.
  mutating func endRender(context: GLContext) {
    for target in free { context.delete(target) }
    free = inUse + released
    inUse = []
    released = []
  }

  mutating func removeAll(context: GLContext) {
    for target in free + inUse + released { context.delete(target) }
    free = []
    inUse = []
    released = []
  }
}
