#pragma once
/// @file line_reader.hpp
/// Reads a text file's lines one by one, whatever its line ends, counting 1-based line numbers
/// for error messages. Used by the pattern reader (life) and the boids CSV reader.
#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <utility>
#include <vector>

namespace flocklife {

/// Lines end at "\n" (Unix), "\r\n" (DOS) and a lone '\r' (classic Mac files, which have no "\n"):
/// a run of '\r's right before "\n" or the end of the stream is one line end ("\r\r\n" from a DOS
/// file converted twice), elsewhere each '\r' ends a line. "\n\r" is thus two line ends, as in
/// Python's universal newlines. A UTF-8 byte order mark at the start of the first line is dropped.
/// Open the stream in binary mode, so that the '\r's reach the reader on every platform. The one
/// error on content is a line longer than kMaxLineBytes, so that a file or device without line ends
/// (/dev/zero, a file of zeros larger than the memory) is refused at once rather than read whole;
/// the bound holds for each line of any of the three kinds. A read error (the stream's badbit) is
/// an error too, not the end of the file, so that a file is never read as its first part.
class LineReader {
 public:
  /// The longest line read: 256 MiB (a plaintext row of 2.7e8 cells).
  static constexpr std::size_t kMaxLineBytes = std::size_t(256) << 20;

  /// `source` names the file in the one error (the file name, or "--in <path>").
  LineReader(std::istream& in, std::string source) : in_(in), source_(std::move(source)) {}

  /// The next line, without its line end, into `line`; false at the end of the stream.
  /// @throws InputError "<source>:<line>: a line longer than 256 MiB (no line end); expected a text
  ///         file (a binary file, or a device such as /dev/zero, has no lines)", or "<source>:<line>:
  ///         read error after <N> bytes; expected the whole file to be readable".
  bool next(std::string& line);

  /// The 1-based number of the line `next` returned last (0 before the first).
  long long number() const { return number_; }

 private:
  /// Reads the next block into buffer_ when the last is used up; false at the end of the stream.
  bool fill();
  /// The next byte (0-255) without taking it; -1 at the end of the stream.
  int peek();

  std::istream& in_;
  std::string source_;
  std::vector<char> buffer_ = std::vector<char>(std::size_t(1) << 16);  ///< a block of the stream
  std::size_t pos_ = 0, end_ = 0;  ///< the unread bytes of buffer_: [pos_, end_)
  std::uint64_t offset_ = 0;       ///< bytes read from the stream before buffer_'s block
  std::size_t pendingEmpty_ = 0;  ///< empty lines still to return, from a run of '\r's
  long long number_ = 0;
};

}  // namespace flocklife
