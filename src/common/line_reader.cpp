#include "common/line_reader.hpp"

#include <algorithm>
#include <string>

#include "common/errors.hpp"

namespace flocklife {

bool LineReader::fill() {
  if (pos_ < end_) return true;
  if (!in_) return false;
  in_.read(buffer_.data(), std::streamsize(buffer_.size()));
  pos_ = 0;
  end_ = std::size_t(in_.gcount());
  if (in_.bad())  // not the end of the file: what follows was never read
    throw InputError(source_ + ":" + std::to_string(number_ + 1) + ": read error after " +
                     std::to_string(offset_ + end_) + " bytes; expected the whole file to be readable");
  offset_ += end_;
  return end_ > 0;
}

int LineReader::peek() { return fill() ? static_cast<unsigned char>(buffer_[pos_]) : -1; }

bool LineReader::next(std::string& line) {
  line.clear();
  if (pendingEmpty_ > 0) {  // the lines between the '\r's of a run of them
    --pendingEmpty_;
    ++number_;
    return true;
  }
  if (!fill()) return false;
  while (true) {
    if (!fill()) break;  // the last line, without a line end
    const char* from = buffer_.data() + pos_;
    const char* to = buffer_.data() + end_;
    const char* stop = std::find_if(from, to, [](char c) { return c == '\n' || c == '\r'; });
    line.append(from, std::size_t(stop - from));
    pos_ += std::size_t(stop - from);
    if (line.size() > kMaxLineBytes)
      throw InputError(source_ + ":" + std::to_string(number_ + 1) +
                       ": a line longer than 256 MiB (no line end); expected a text file (a binary file, or a device "
                       "such as /dev/zero, has no lines)");
    if (stop == to) continue;  // the line goes on in the next block
    ++pos_;
    if (*stop == '\r') {
      // k '\r's end one line where "\n" or the end of the stream follows ("\r\n", "\r\r\n"), else
      // k lines (classic Mac files), the k - 1 after this one empty.
      std::size_t run = 1;
      for (; peek() == '\r'; ++pos_) ++run;
      const int after = peek();
      if (after == '\n')
        ++pos_;
      else if (after != -1)
        pendingEmpty_ = run - 1;
    }
    break;
  }
  ++number_;
  if (number_ == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a UTF-8 byte order mark
  return true;
}

}  // namespace flocklife
