#pragma once
/// @file registry.hpp
/// The name lookup behind `--kernel NAME` (life) and `--method NAME` (boids): a fixed list of
/// entries, each with an `info.name`, built once per module.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/errors.hpp"

namespace flocklife {

/// Throws unless some element of `infos` (anything with a std::string `name`) is called `name`.
/// For a list option of another command (`bench life --kernels a,b`) as for Registry::find.
/// @param flag  the option that names it, for messages ("--kernels")
/// @param noun  what it names, for messages ("kernel")
/// @throws InputError("<flag>: unknown <noun> '<name>'; available in this build: a, b, ...")
template <class Info>
void requireKnownName(const std::vector<Info>& infos, const std::string& name, const std::string& flag,
                      const std::string& noun) {
  for (const auto& i : infos)
    if (i.name == name) return;
  std::string known;
  for (const auto& i : infos) known += (known.empty() ? "" : ", ") + i.name;
  throw InputError(flag + ": unknown " + noun + " '" + name + "'; available in this build: " + known);
}

/// Entries selectable by name. Entry must have a member `info` with a std::string `name`; names
/// are unique (the first match wins). Immutable after construction.
template <class Entry>
class Registry {
 public:
  using Info = decltype(Entry::info);

  /// @param flag  the option that selects an entry, for messages ("--kernel")
  /// @param noun  what an entry is, for messages ("kernel")
  Registry(std::vector<Entry> entries, std::string flag, std::string noun)
      : entries_(std::move(entries)), flag_(std::move(flag)), noun_(std::move(noun)) {
    for (const auto& e : entries_) infos_.push_back(e.info);
  }

  /// Every entry's info, in the order given.
  const std::vector<Info>& infos() const noexcept { return infos_; }

  /// The entry called `name`.
  /// @throws InputError("<flag>: unknown <noun> '<name>'; available in this build: a, b, ...")
  const Entry& find(const std::string& name) const {
    for (const auto& e : entries_)
      if (e.info.name == name) return e;
    requireKnownName(infos_, name, flag_, noun_);  // throws: no entry is called `name`
    throw std::logic_error("Registry::find: infos and entries disagree");
  }

 private:
  std::vector<Entry> entries_;
  std::vector<Info> infos_;
  std::string flag_, noun_;
};

}  // namespace flocklife
