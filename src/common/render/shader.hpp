#pragma once
/// @file shader.hpp
/// GLSL programs loaded from files under shaders/ at start (needs a current GL context).
#include <string>

namespace flocklife::render {

/// The shader folder: `override` when not empty (--shader-dir), else the first of
/// <executable dir>/shaders, <executable dir>/../shaders, <executable dir>/../../shaders and the
/// source tree's shaders/ (FLOCKLIFE_SHADER_DIR) that holds every file the windows load
/// (life.vert, life.frag, points.vert, points.frag).
/// @throws InputError "--shader-dir <dir>: it lacks <files>; ..." for an override without them all,
///         and one naming the folders tried when none has them.
std::string findShaderDir(const std::string& override = "");

/// Compiles `<dir>/<vertexFile>` and `<dir>/<fragmentFile>` and links them.
/// @return the GL program name (the caller deletes it with glDeleteProgram)
/// @throws InputError("shader <path>: cannot read") for a missing file, and
///         InputError("shader <path>: compile failed:\n<driver log>") or
///         InputError("shader program <vert> + <frag>: link failed:\n<driver log>").
unsigned loadProgram(const std::string& dir, const std::string& vertexFile, const std::string& fragmentFile);

}  // namespace flocklife::render
