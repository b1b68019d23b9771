// The display's cell fetch (life/cell_layout.hpp) for every layout a Life engine keeps, on the
// host: each layout is built from a World by the same host packing the engines' load() uses
// (bit_layout.hpp packWorld, bitslice.hpp pack, packet64's padded rows), its padding filled with
// live bits or bytes the way an engine may leave it, and every cell read back must equal the World.
// The device kernels run the same FL_HD function (display_test.cpp checks them on a GPU).
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "life/bit_layout.hpp"
#include "life/bitslice.hpp"
#include "life/cell_layout.hpp"
#include "life/pattern.hpp"
#include "life/display.hpp"
#include "life/world.hpp"

namespace flocklife::life {

namespace {

// Widths around the multiples of 8, 32 and 64 (partial last byte / word / packet).
const std::pair<std::int64_t, std::int64_t> kSizes[] = {{1, 1},   {1, 40},  {40, 1},  {7, 13},   {31, 33},
                                                        {33, 31}, {63, 65}, {65, 64}, {100, 37}, {129, 70}};

/// A cell layout built on the host, with its buffer.
struct HostLayout {
  std::vector<std::uint8_t> bytes;
  CellView view;
};

HostLayout bytePerCell(const World& world) {
  HostLayout l{world.cells(), {}};
  l.view = CellView::bytePerCell(l.bytes.data(), world.width(), world.height());
  return l;
}

/// packet64's rows: 8 * ceil(width / 8) bytes, padding live (0x01) and junk (0xEE).
HostLayout packetRows(const World& world) {
  const std::uint64_t w = std::uint64_t(world.width()), pitch = (w + 7) / 8 * 8;
  HostLayout l{std::vector<std::uint8_t>(pitch * std::uint64_t(world.height())), {}};
  for (std::uint64_t i = 0; i < l.bytes.size(); ++i) l.bytes[i] = i % 2 ? 0x01 : 0xEE;
  for (std::int64_t y = 0; y < world.height(); ++y)
    std::memcpy(l.bytes.data() + std::uint64_t(y) * pitch, world.cells().data() + std::uint64_t(y) * w, w);
  l.view = {l.bytes.data(), CellLayout::BytePerCell, world.width(), world.height(), pitch};
  return l;
}

/// The BitLayout of bitcount, bitcount32 and lut6x3, every padding bit set.
HostLayout bitRows(const World& world) {
  const BitLayout layout = BitLayout::of(world.width(), world.height());
  HostLayout l{std::vector<std::uint8_t>(layout.totalBytes()), {}};
  packWorld(world, layout, l.bytes.data());
  const std::uint64_t rowBytes = (std::uint64_t(world.width()) + 7) / 8;
  const int lastBits = int(world.width() - std::int64_t(rowBytes - 1) * 8);
  for (std::int64_t y = 0; y < world.height(); ++y) {
    std::uint8_t* row = l.bytes.data() + std::uint64_t(y) * layout.pitchBytes;
    row[rowBytes - 1] |= std::uint8_t(0xFFu << lastBits);
    for (std::uint64_t b = rowBytes; b < layout.pitchBytes; ++b) row[b] = 0xFF;
  }
  l.view = {l.bytes.data(), CellLayout::BitRows, world.width(), world.height(), layout.pitchBytes};
  return l;
}

/// fast's column words, the bits of the last word row past the height set.
HostLayout columnWords(const World& world, std::vector<std::uint32_t>& words) {
  words = bits::pack(world.cells(), world.width(), world.height());
  const int used = int(world.height() - (bits::wordRows(world.height()) - 1) * 32);
  const std::uint32_t pad = used == 32 ? 0u : ~((1u << used) - 1u);
  for (std::int64_t x = 0; x < world.width(); ++x)
    words[std::uint64_t(bits::wordRows(world.height()) - 1) * std::uint64_t(world.width()) + std::uint64_t(x)] |= pad;
  HostLayout l;
  l.view = {words.data(), CellLayout::ColumnWords32, world.width(), world.height(), 0};
  return l;
}

void expectReadsTheWorld(const CellView& v, const World& world, const char* what) {
  std::uint64_t wrong = 0;
  for (std::int64_t y = 0; y < world.height(); ++y)
    for (std::int64_t x = 0; x < world.width(); ++x) wrong += cellAlive(v, x, y) != (world.at(x, y) != 0);
  EXPECT_EQ(wrong, 0u) << what << " " << world.width() << "x" << world.height();
}

}  // namespace

TEST(CellLayout, EveryLayoutReadsTheCellsOfTheWorldAndIgnoresPadding) {
  for (auto [w, h] : kSizes) {
    const World world = randomSoup(w, h, 1.0 / 3, std::uint64_t(w * 1000 + h));
    expectReadsTheWorld(bytePerCell(world).view, world, "byte per cell");
    expectReadsTheWorld(packetRows(world).view, world, "packet64 rows");
    expectReadsTheWorld(bitRows(world).view, world, "bit rows");
    std::vector<std::uint32_t> words;
    expectReadsTheWorld(columnWords(world, words).view, world, "column words");
  }
}

TEST(CellLayout, SpanCoversWhatCellAliveReads) {
  const World world = randomSoup(37, 70, 1.0 / 3, 3);
  const HostLayout packets = packetRows(world), rows = bitRows(world);
  std::vector<std::uint32_t> words;
  const HostLayout columns = columnWords(world, words);
  EXPECT_EQ(cellViewSpanBytes(bytePerCell(world).view), 37u * 70u);
  EXPECT_EQ(cellViewSpanBytes(packets.view), 69u * 40u + 37u);  // the last row's padding is not read
  EXPECT_EQ(cellViewSpanBytes(rows.view), 69u * 8u + 5u);
  EXPECT_EQ(cellViewSpanBytes(columns.view), words.size() * 4u);  // 3 word rows of 37 words
  EXPECT_EQ(words.size(), 3u * 37u);
  EXPECT_EQ(cellViewSpanBytes(CellView{}), 0u);
}

TEST(CellLayout, ValidationNamesTheCallerAndWhatIsWrong) {
  const World world = randomSoup(20, 10, 1.0 / 3, 1);
  const CellView ok = CellView::bytePerCell(world.cells().data(), 20, 10);
  EXPECT_NO_THROW(validateCellView(ok, 20, 10, "caller"));
  auto message = [](const CellView& v) {
    try {
      validateCellView(v, 20, 10, "caller");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(CellView{}).find("caller: cell view has no data"), std::string::npos);
  CellView other = ok;
  other.height = 11;
  EXPECT_NE(message(other).find("is 20x11, expected 20x10"), std::string::npos) << message(other);
  CellView shortPitch = ok;
  shortPitch.pitchBytes = 19;
  EXPECT_NE(message(shortPitch).find("pitch 19 bytes is shorter than a row (20 bytes)"), std::string::npos);
  CellView bits{world.cells().data(), CellLayout::BitRows, 20, 10, 2};
  EXPECT_NE(message(bits).find("shorter than a row (3 bytes)"), std::string::npos) << message(bits);
  bits.pitchBytes = 3;
  EXPECT_NO_THROW(validateCellView(bits, 20, 10, "caller"));
}

TEST(LifeDisplayHost, TrailFromEveryLayoutEqualsTheTrailFromBytes) {
  for (auto [w, h] : {std::pair<std::int64_t, std::int64_t>{33, 31}, {65, 7}, {1, 1}}) {
    LifeDisplay fromBytes(w, h, false), fromPackets(w, h, false), fromBits(w, h, false), fromColumns(w, h, false);
    for (std::uint64_t frame = 0; frame < 4; ++frame) {
      const World world = randomSoup(w, h, 1.0 / 3, 100 + frame);
      std::vector<std::uint32_t> words;
      fromBytes.update(bytePerCell(world).view);
      fromPackets.update(packetRows(world).view);
      fromBits.update(bitRows(world).view);
      fromColumns.update(columnWords(world, words).view);
    }
    const auto expect = fromBytes.trail();
    EXPECT_EQ(fromPackets.trail(), expect);
    EXPECT_EQ(fromBits.trail(), expect);
    EXPECT_EQ(fromColumns.trail(), expect);
  }
  LifeDisplay d(4, 4, false);
  const World small(4, 3);
  EXPECT_THROW(d.update(bytePerCell(small).view), std::invalid_argument);
}

}  // namespace flocklife::life
