// Shader files: locate the folder, read, compile, link, and report the driver's log with the file.
#include "common/render/shader.hpp"

#include <glad/gl.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "common/errors.hpp"

namespace flocklife::render {

namespace fs = std::filesystem;

namespace {

/// The shader files the windows load (Life's view and the boids' GL_POINTS), those of shaders/.
constexpr const char* kShaderFiles[] = {"life.vert", "life.frag", "points.vert", "points.frag"};

/// The files of kShaderFiles that `dir` lacks, as "a, b"; empty when it has them all.
std::string missingShaders(const fs::path& dir) {
  std::string missing;
  for (const char* f : kShaderFiles)
    if (!fs::exists(dir / f)) missing += (missing.empty() ? "" : ", ") + std::string(f);
  return missing;
}

}  // namespace

std::string findShaderDir(const std::string& override) {
  if (!override.empty()) {
    std::error_code ec;
    const fs::file_status st = fs::status(override, ec);  // every file was listed as lacking (a tester)
    if (st.type() != fs::file_type::directory)
      throw InputError("--shader-dir " + override + ": " +
                       (st.type() == fs::file_type::not_found ? std::string("does not exist")
                        : ec                                  ? "cannot be examined: " + ec.message()
                                                              : std::string("is not a folder")) +
                       "; expected the project's shaders/ folder (life.vert, life.frag, points.vert, points.frag)");
    if (const std::string missing = missingShaders(override); !missing.empty())
      throw InputError("--shader-dir " + override + ": it lacks " + missing +
                       "; expected the project's shaders/ folder (life.vert, life.frag, points.vert, points.frag)");
    return override;
  }
  std::vector<fs::path> tried;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    tried.push_back(exe.parent_path() / "shaders");
    tried.push_back(exe.parent_path().parent_path() / "shaders");
    tried.push_back(exe.parent_path().parent_path().parent_path() / "shaders");  // build/tests/<test>
  }
  tried.push_back(FLOCKLIFE_SHADER_DIR);
  std::string list;
  for (const auto& d : tried) {
    if (missingShaders(d).empty()) return d.string();
    list += " " + d.string();
  }
  throw InputError("shaders not found (tried" + list + "); give the folder with --shader-dir");
}

namespace {

std::string readFile(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec))  // a folder opens and reads as empty: the compiler's "unexpected end of file"
    throw InputError("shader " + path + ": it is a folder; expected a GLSL shader file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("shader " + path + ": cannot read");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The status query and the log query of a shader (glGetShaderiv, glGetShaderInfoLog) or of a
/// program (glGetProgramiv, glGetProgramInfoLog): the two pairs have the same signatures.
using GetObjectParam = void(GLAD_API_PTR*)(GLuint object, GLenum pname, GLint* params);
using GetObjectLog = void(GLAD_API_PTR*)(GLuint object, GLsizei bufSize, GLsizei* length, GLchar* log);

/// The driver's log when `object` failed the step whose status is `statusParam`
/// (GL_COMPILE_STATUS of a shader, GL_LINK_STATUS of a program), read with `getParam` and
/// `getLog`; nullopt when the step succeeded. The log may be empty.
std::optional<std::string> failureLog(GLuint object, GLenum statusParam, GetObjectParam getParam,
                                      GetObjectLog getLog) {
  GLint ok = 0;
  getParam(object, statusParam, &ok);
  if (ok) return std::nullopt;
  GLint len = 0;
  getParam(object, GL_INFO_LOG_LENGTH, &len);
  std::string log(std::size_t(len > 0 ? len : 1), '\0');
  getLog(object, GLsizei(log.size()), nullptr, log.data());
  return std::string(log.c_str());
}

GLuint compile(GLenum type, const std::string& path) {
  const std::string text = readFile(path);
  const GLuint s = glCreateShader(type);
  const char* src = text.c_str();
  glShaderSource(s, 1, &src, nullptr);
  glCompileShader(s);
  if (const auto log = failureLog(s, GL_COMPILE_STATUS, glGetShaderiv, glGetShaderInfoLog)) {
    glDeleteShader(s);
    throw InputError("shader " + path + ": compile failed:\n" + *log);
  }
  return s;
}

}  // namespace

unsigned loadProgram(const std::string& dir, const std::string& vertexFile, const std::string& fragmentFile) {
  const std::string vp = (fs::path(dir) / vertexFile).string(), fp = (fs::path(dir) / fragmentFile).string();
  const GLuint vs = compile(GL_VERTEX_SHADER, vp);
  GLuint fsh = 0;
  try {
    fsh = compile(GL_FRAGMENT_SHADER, fp);
  } catch (...) {
    glDeleteShader(vs);
    throw;
  }
  const GLuint p = glCreateProgram();
  glAttachShader(p, vs);
  glAttachShader(p, fsh);
  glLinkProgram(p);
  glDeleteShader(vs);
  glDeleteShader(fsh);
  if (const auto log = failureLog(p, GL_LINK_STATUS, glGetProgramiv, glGetProgramInfoLog)) {
    glDeleteProgram(p);
    throw InputError("shader program " + vp + " + " + fp + ": link failed:\n" + *log);
  }
  return p;
}

}  // namespace flocklife::render
