#version 300 es
// The quad of one filter pass: the whole output surface, as two triangles, with no vertex buffer
// (the corners come from gl_VertexID). The viewport is the output surface, so the quad covers
// exactly its pixels; the fragment shaders add u_outputOrigin to gl_FragCoord to name the target
// pixel. No y flip: GL row j of a surface is its texel row j (see layer/layer_quad.vert).

precision highp float;

const vec2 corners[6] = vec2[6](
  vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0),
  vec2(1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, 1.0)
);

void main() {
  gl_Position = vec4(corners[gl_VertexID], 0.0, 1.0);
}
