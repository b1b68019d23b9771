#include "common/line_reader.hpp"

#include <utility>

namespace flocklife {

bool LineReader::next(std::string& line) {
  if (pending_.empty()) {
    std::string raw;
    if (!std::getline(in_, raw)) return false;
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
