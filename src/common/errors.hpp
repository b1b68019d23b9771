#pragma once
/// @file errors.hpp
/// Exception types shared by every module. No CUDA include: usable from plain C++.
#include <cstddef>
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

/// `text` as an error message may quote it: control bytes (below 0x20, and 0x7f), bytes that are
/// not part of a valid UTF-8 character, and the invisible byte-order mark U+FEFF written as `\xNN`,
/// so that a NUL cannot cut the message short nor an escape sequence, a stray byte or a hidden mark
/// reach the terminal (a mark inside a field looked like the expected text); other UTF-8
/// characters as they are.
/// Text longer than `max` bytes is cut there (at a character's start) and ends in "... (N bytes)",
/// so that a huge field does not flood the terminal.
inline std::string printable(const std::string& text, std::size_t max = 80) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size() && i < max) {
    const unsigned char u = static_cast<unsigned char>(text[i]);
    // The length of a valid UTF-8 sequence starting at i (RFC 3629: no overlongs, no surrogates,
    // at most U+10FFFF); 0 when the byte starts none.
    std::size_t n = u >= 0xc2 && u <= 0xdf ? 2 : u >= 0xe0 && u <= 0xef ? 3 : u >= 0xf0 && u <= 0xf4 ? 4 : 0;
    if (n && i + n <= text.size()) {
      const unsigned char u1 = static_cast<unsigned char>(text[i + 1]);
      const bool secondOk = u == 0xe0 ? u1 >= 0xa0 && u1 <= 0xbf : u == 0xed ? u1 >= 0x80 && u1 <= 0x9f
                            : u == 0xf0 ? u1 >= 0x90 && u1 <= 0xbf : u == 0xf4 ? u1 >= 0x80 && u1 <= 0x8f
                                        : u1 >= 0x80 && u1 <= 0xbf;
      bool ok = secondOk;
      for (std::size_t k = 2; ok && k < n; ++k) ok = (static_cast<unsigned char>(text[i + k]) & 0xc0) == 0x80;
      if (!ok) n = 0;
    } else {
      n = 0;
    }
    const bool mark = n == 3 && text.compare(i, 3, "\xEF\xBB\xBF") == 0;  // U+FEFF, shown escaped
    if (n && !mark) {
      out.append(text, i, n);
      i += n;
    } else if (mark || u < 0x20 || u >= 0x7f) {
      char hex[5];
      for (std::size_t k = 0; k < (mark ? 3u : 1u); ++k) {
        std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(text[i + k]));
        out += hex;
      }
      i += mark ? 3 : 1;
    } else {
      out += char(u);
      ++i;
    }
  }
  if (i < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

/// The requested problem does not fit in host or device memory. what() gives the required and
/// available bytes.
struct OutOfMemoryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A run was stopped by a signal (SIGINT, SIGTERM or SIGHUP after saving its checkpoint, or
/// before a benchmark's next configuration; SIGINT,
/// SIGQUIT, SIGTERM or SIGHUP that ended a child process, such as bench life's bgolly). what() says what was kept; the app prints it and exits with status 128 + `signal` (130 for SIGINT,
/// 143 for SIGTERM, 129 for SIGHUP, as shells report a process those signals ended).
struct Interrupted : std::runtime_error {
  Interrupted(const std::string& what, int signal) : std::runtime_error(what), signal(signal) {}
  int signal;
};

}  // namespace flocklife
