#include "common/line_reader.hpp"

#include <utility>
#include <vector>

#include "common/errors.hpp"

namespace flocklife {

bool LineReader::readRaw(std::string& raw) {
  raw.clear();
  std::vector<char>& chunk = chunk_;
  bool any = false;
  while (true) {
    in_.getline(chunk.data(), std::streamsize(chunk.size()));  // to "\n" or a full chunk (failbit)
    const std::size_t got = std::size_t(in_.gcount());
    any = any || got > 0;
    const bool full = in_.fail() && !in_.eof() && got + 1 == chunk.size();
    const bool delimited = !in_.fail() && !in_.eof();  // the "\n" was taken and counted
    raw.append(chunk.data(), delimited ? got - 1 : got);
    if (raw.size() > kMaxLineBytes)
      throw InputError(source_ + ":" + std::to_string(number_ + 1) +
                       ": a line longer than 256 MiB (no line end); expected a text file (a binary file, or a device "
                       "such as /dev/zero, has no lines)");
    if (!full) return any;
    in_.clear();  // the line goes on past the chunk
  }
}

bool LineReader::next(std::string& line) {
  if (pending_.empty()) {
    std::string raw;
    if (!readRaw(raw)) return false;
    while (!raw.empty() && raw.back() == '\r') raw.pop_back();
    std::size_t start = 0;
    for (std::size_t cr; (cr = raw.find('\r', start)) != std::string::npos; start = cr + 1)
      pending_.push_back(raw.substr(start, cr - start));
    pending_.push_back(raw.substr(start));
  }
  line = std::move(pending_.front());
  pending_.pop_front();
  ++number_;
  if (number_ == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a UTF-8 byte order mark
  return true;
}

}  // namespace flocklife
