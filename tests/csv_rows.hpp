#pragma once
/// @file csv_rows.hpp
/// Reads back the CSV files that `flocklife bench ...` writes (bench::CsvWriter: a header line,
/// then one line per row, cells separated by commas and never quoted), for the CLI tests.
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace flocklife::test {

/// The rows of the CSV at `path`, each as column name -> value (an empty cell as ""; a trailing
/// comma ends with an empty last cell). A file that cannot be read, or holds only a header, gives
/// no rows; cells beyond the header are ignored, missing ones left out of the row.
inline std::vector<std::map<std::string, std::string>> readCsv(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::map<std::string, std::string>> rows;
  auto split = [](const std::string& line) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, ',')) cells.push_back(c);
    if (!line.empty() && line.back() == ',') cells.push_back("");
    return cells;
  };
  std::string line;
  if (!std::getline(in, line)) return rows;
  const auto header = split(line);
  while (std::getline(in, line)) {
    const auto cells = split(line);
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

}  // namespace flocklife::test
