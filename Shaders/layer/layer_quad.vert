#version 300 es
// The quad of one RenderList draw: exactly its pixel bounds, as two triangles, with no vertex
// buffer (the corners come from gl_VertexID).
//
// Positions are target pixels (origin top-left, y down). The current render target is a surface
// covering the target pixels u_targetOrigin + [0, u_targetSize): positions go to NDC as
// (p - origin) / size * 2 - 1 with NO y flip, so GL row j of the surface holds target row
// origin.y + j, gl_FragCoord.xy + origin is the target pixel centre (i + 0.5, j + 0.5), and
// glReadPixels returns the rows top-down as they are.

precision highp float;

// (minX, minY, maxX, maxY) of the draw's pixel bounds, in target pixels.
uniform vec4 u_rect;
// (width, height) of the current render target (a surface; the whole target for the main one).
uniform vec2 u_targetSize;
// Target pixel of the current render target's texel (0, 0): whole numbers, so p - origin is exact.
uniform vec2 u_targetOrigin;

const vec2 corners[6] = vec2[6](
  vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0),
  vec2(1.0, 0.0), vec2(1.0, 1.0), vec2(0.0, 1.0)
);

void main() {
  vec2 c = corners[gl_VertexID];
  vec2 p = vec2(c.x == 0.0 ? u_rect.x : u_rect.z, c.y == 0.0 ? u_rect.y : u_rect.w);
  gl_Position = vec4((p - u_targetOrigin) / u_targetSize * 2.0 - 1.0, 0.0, 1.0);
}
