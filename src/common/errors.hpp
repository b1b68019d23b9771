#pragma once
/// @file errors.hpp
/// Exception types shared by every module. No CUDA include: usable from plain C++.
#include <cstdio>
#include <stdexcept>
#include <string>

namespace flocklife {

/// A CUDA runtime call failed. what() holds the call, file:line and the runtime's error text.
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The user's input (a flag, a file, a size) is invalid. what() names the flag, file, line or
/// value and says what was expected; the app prints it and exits with status 2.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// `text` as an error message may quote it: control bytes (below 0x20, and 0x7f) written as
/// `\xNN`, so that a NUL cannot cut the message short nor an escape sequence reach the terminal;
/// other bytes (UTF-8 included) as they are.
inline std::string printable(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", u);
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}

/// The requested problem does not fit in host or device memory. what() gives the required and
/// available bytes.
struct OutOfMemoryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A run was stopped by SIGINT / SIGTERM / SIGHUP after saving its checkpoint. what() says where
/// the state was saved; the app prints it and exits with status 128 + `signal` (130 for SIGINT,
/// 143 for SIGTERM, 129 for SIGHUP, as shells report a process those signals ended).
struct Interrupted : std::runtime_error {
  Interrupted(const std::string& what, int signal) : std::runtime_error(what), signal(signal) {}
  int signal;
};

}  // namespace flocklife
