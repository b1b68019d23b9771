#pragma once
/// @file line_reader.hpp
/// Reads a text file's lines one by one, whatever its line ends, counting 1-based line numbers
/// for error messages. Used by the pattern reader (life) and the boids CSV reader.
#include <deque>
#include <istream>
#include <string>

namespace flocklife {

/// Lines end at "\n" with any '\r's before it dropped (Unix, DOS, and "\r\r\n" from a DOS file
/// converted twice); a line that still holds a '\r' is split there, each '\r' ending a line
/// (classic Mac files, which have no "\n"). "\n\r" is thus two line ends, as in Python's universal
/// newlines. A UTF-8 byte order mark at the start of the first line is dropped. Open the stream in
/// binary mode, so that the '\r's reach the reader on every platform. Never throws on content.
class LineReader {
 public:
  explicit LineReader(std::istream& in) : in_(in) {}

  /// The next line, without its line end, into `line`; false at the end of the stream.
  bool next(std::string& line);

  /// The 1-based number of the line `next` returned last (0 before the first).
  long long number() const { return number_; }

 private:
  std::istream& in_;
  std::deque<std::string> pending_;  ///< the pieces of a line split at '\r', not yet returned
  long long number_ = 0;
};

}  // namespace flocklife
