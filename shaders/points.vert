#version 450 core
// Boids (points) and the cube's edges (lines): world-space position and colour per vertex.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 colorIn;
uniform mat4 mvp;
uniform float pointSize;
out vec3 vColor;
void main() {
  gl_Position = mvp * vec4(position, 1.0);
  gl_PointSize = pointSize;
  vColor = colorIn;
}
