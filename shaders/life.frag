#version 450 core
// Shows the pixel buffer the Life display wrote (top row first) one texel per window pixel.
layout(binding = 0) uniform sampler2D pixels;
out vec4 color;
void main() {
  ivec2 size = textureSize(pixels, 0);
  ivec2 p = ivec2(gl_FragCoord.xy);
  color = texelFetch(pixels, ivec2(p.x, size.y - 1 - p.y), 0);
}
